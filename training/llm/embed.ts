import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Encoder } from "../../src/models/encoder.js";
import { cleanText } from "../../src/text/normalize.js";
import type { TextWindow } from "../../src/text/windows.js";
import { splitIntoWindows } from "../../src/text/windows.js";
import type { Example } from "./example.js";

/** An example's engine windows (of `text.clean`, as the engine cuts them) and their USE-lite vectors. */
export interface Embedded {
  windows: TextWindow[];
  vectors: Float32Array[];
  /** Windows that hold the planted payload (indirect examples only). */
  planted: number[];
}

/**
 * Embeds every example's encoder windows exactly as the engine does (src/engine/embedding.ts over
 * `text.clean`). Vectors are cached per window text in the temp dir, keyed by encoder id, so adding
 * data only embeds the new windows.
 */
export async function embedExamples(examples: Example[], encoder: Encoder): Promise<Embedded[]> {
  const info = await encoder.load();
  const dir = join(tmpdir(), "guardrail-injection-embeddings");
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `v2-${createHash("sha256").update(info.id).digest("hex").slice(0, 12)}`);
  const cache = readCache(base, encoder.dim);
  const cleaned = examples.map((e) => cleanText(e.text));
  const windows = cleaned.map((t) => splitIntoWindows(t, (x) => encoder.countTokens(x)));
  const missing = [...new Set(windows.flatMap((w) => w.map((x) => x.text)))].filter((t) => !cache.has(t));
  for (let i = 0; i < missing.length; i += 256) {
    const batch = missing.slice(i, i + 256);
    const vectors = await encoder.embed(batch);
    batch.forEach((t, j) => {
      cache.set(t, vectors[j] as Float32Array);
    });
  }
  if (missing.length > 0) writeCache(base, cache, encoder.dim);
  return examples.map((e, i) => {
    const ws = windows[i] ?? [];
    const clean = cleaned[i] as string;
    const payload = e.payload ? clean.indexOf(cleanText(e.payload)) : -1;
    const end = payload + (e.payload ? cleanText(e.payload).length : 0);
    const planted = payload < 0 ? [] : ws.flatMap((w, j) => (w.start < end && w.end > payload ? [j] : []));
    return { windows: ws, vectors: ws.map((w) => cache.get(w.text) as Float32Array), planted };
  });
}

function readCache(base: string, dim: number): Map<string, Float32Array> {
  const cache = new Map<string, Float32Array>();
  if (!existsSync(`${base}.json`) || !existsSync(`${base}.f32`)) return cache;
  const keys = JSON.parse(readFileSync(`${base}.json`, "utf8")) as string[];
  const bytes = readFileSync(`${base}.f32`);
  const flat = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  if (flat.length !== keys.length * dim) return cache;
  keys.forEach((k, i) => {
    cache.set(k, flat.subarray(i * dim, (i + 1) * dim));
  });
  return cache;
}

function writeCache(base: string, cache: Map<string, Float32Array>, dim: number): void {
  const keys = [...cache.keys()];
  const flat = new Float32Array(keys.length * dim);
  keys.forEach((k, i) => {
    flat.set(cache.get(k) as Float32Array, i * dim);
  });
  writeFileSync(`${base}.json`, JSON.stringify(keys));
  writeFileSync(`${base}.f32`, Buffer.from(flat.buffer));
}
