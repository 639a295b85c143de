/**
 * USE-lite vectors for the training texts, one per encoder window (the same windows the engine
 * makes at run time), cached per text (training/lib/vector-cache.ts) so a retrain skips the encoder.
 */
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import type { Precision } from "../../src/models/use-lite/precision.js";
import { splitIntoWindows } from "../../src/text/windows.js";
import { cacheStem, openVectorCache } from "../lib/vector-cache.js";

export type Vectors = Map<string, Float32Array[]>;

/** Texts per `encoder.embed` call (their windows go in one call): part of what the vectors are. */
const CHUNK = 2000;

export async function embedTexts(
  texts: readonly string[],
  log: (m: string) => void,
  precision: Precision = "fp32",
): Promise<{ vectors: Vectors; encoderId: string }> {
  // The int8 encoder has its own id, so its vectors are cached apart from the fp32 ones.
  const encoder = createUseLiteEncoder({ intraOpThreads: 2, maxBatch: 64, precision });
  const { id } = await encoder.load();
  const cache = openVectorCache(encoder.dim, cacheStem("moderation", id));
  const missing = cache.missing(texts);
  if (missing.length > 0) {
    log(`embedding ${missing.length} texts (${cache.size} cached)`);
    await cache.fill(
      missing,
      CHUNK,
      async (chunk) => {
        const windows = chunk.map((t) => splitIntoWindows(t, encoder.countTokens).map((w) => w.text));
        const flat = await encoder.embed(windows.flat());
        let at = 0;
        return windows.map((w) => {
          at += w.length;
          return flat.slice(at - w.length, at).map((v) => Float32Array.from(v));
        });
      },
      (done, total) => log(`embedded ${done}/${total}`),
    );
  }
  await encoder.close();
  const vectors: Vectors = new Map();
  for (const t of texts) vectors.set(t, cache.get(t) ?? []);
  return { vectors, encoderId: id };
}
