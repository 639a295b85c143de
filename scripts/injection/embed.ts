import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Encoder } from "../../src/models/encoder.js";
import { splitIntoWindows } from "../../src/models/use-lite/windows.js";
import type { Example } from "./example.js";

/** An example's USE-lite vectors: one per encoder window (one for a short text). */
export interface Embedded {
  vectors: Float32Array[];
  /** Windows that hold the planted payload (indirect examples only). */
  planted: number[];
}

/**
 * Embeds every example's encoder windows (src/models/use-lite/windows.ts, as the engine does),
 * cached in the temp dir by text and encoder id, so re-training does not re-embed.
 */
export async function embedExamples(examples: Example[], encoder: Encoder): Promise<Embedded[]> {
  const info = await encoder.load();
  const dir = join(tmpdir(), "guardrail-injection-embeddings");
  mkdirSync(dir, { recursive: true });
  const windows = examples.map((e) => splitIntoWindows(e.text, (t) => encoder.countTokens(t)));
  const texts = windows.flatMap((w) => w.map((x) => x.text));
  const key = createHash("sha256").update(info.id).update(texts.join("\u0000")).digest("hex").slice(0, 16);
  const file = join(dir, `${key}.f32`);
  let flat: Float32Array;
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    flat = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  } else {
    flat = new Float32Array(texts.length * encoder.dim);
    const batch = 256;
    for (let i = 0; i < texts.length; i += batch) {
      const vectors = await encoder.embed(texts.slice(i, i + batch));
      vectors.forEach((v, j) => {
        flat.set(v, (i + j) * encoder.dim);
      });
    }
    writeFileSync(file, Buffer.from(flat.buffer));
  }
  let at = 0;
  return examples.map((e, i) => {
    const ws = windows[i] ?? [];
    const vectors = ws.map(() => flat.subarray(at * encoder.dim, ++at * encoder.dim));
    const payload = e.payload ? e.text.indexOf(e.payload) : -1;
    const end = payload + (e.payload?.length ?? 0);
    const planted = payload < 0 ? [] : ws.flatMap((w, j) => (w.start < end && w.end > payload ? [j] : []));
    return { vectors, planted };
  });
}
