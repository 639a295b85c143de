/**
 * USE-lite vectors for the training texts, one per encoder window (the same windows the engine
 * makes at run time), cached on disk under node_modules/.cache so a retrain skips the encoder.
 * The cache is keyed by the encoder's id: a rebuilt encoder starts a fresh cache.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { splitIntoWindows } from "../../src/text/windows.js";

export type Vectors = Map<string, Float32Array[]>;

const key = (text: string) => createHash("sha1").update(text).digest("base64url");

export async function embedTexts(
  texts: readonly string[],
  cacheDir: string,
  log: (m: string) => void,
): Promise<{ vectors: Vectors; encoderId: string }> {
  const encoder = createUseLiteEncoder({ intraOpThreads: 2, maxBatch: 64 });
  const { id } = await encoder.load();
  const dim = encoder.dim;
  mkdirSync(cacheDir, { recursive: true });
  const stem = `moderation-${id.replace(/[^\w.-]/g, "_")}`;
  const indexFile = join(cacheDir, `${stem}.json`);
  const dataFile = join(cacheDir, `${stem}.f32`);
  const cached = new Map<string, Float32Array[]>();
  if (existsSync(indexFile) && existsSync(dataFile)) {
    const index = JSON.parse(readFileSync(indexFile, "utf8")) as [string, number][];
    const buf = readFileSync(dataFile);
    const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    let offset = 0;
    for (const [k, n] of index) {
      const list: Float32Array[] = [];
      for (let i = 0; i < n; i++, offset += dim) list.push(all.subarray(offset, offset + dim));
      cached.set(k, list);
    }
  }
  const missing = [...new Set(texts)].filter((t) => !cached.has(key(t)));
  if (missing.length > 0) {
    log(`embedding ${missing.length} texts (${cached.size} cached)`);
    for (let from = 0; from < missing.length; from += 2000) {
      const chunk = missing.slice(from, from + 2000);
      const windows = chunk.map((t) => splitIntoWindows(t, encoder.countTokens).map((w) => w.text));
      const flat = await encoder.embed(windows.flat());
      let at = 0;
      windows.forEach((w, i) => {
        cached.set(
          key(chunk[i] as string),
          flat.slice(at, at + w.length).map((v) => Float32Array.from(v)),
        );
        at += w.length;
      });
      log(`embedded ${Math.min(from + 2000, missing.length)}/${missing.length}`);
    }
    const index: [string, number][] = [...cached].map(([k, v]) => [k, v.length]);
    const data = new Float32Array(index.reduce((n, [, c]) => n + c, 0) * dim);
    let offset = 0;
    for (const list of cached.values()) for (const v of list) data.set(v, offset++ * dim);
    writeFileSync(dataFile, new Uint8Array(data.buffer));
    writeFileSync(indexFile, JSON.stringify(index));
  }
  await encoder.close();
  const vectors: Vectors = new Map();
  for (const t of texts) vectors.set(t, cached.get(key(t)) ?? []);
  return { vectors, encoderId: id };
}
