/**
 * Embeds every sentence the evaluation will ask for in a few large batches up front, then serves
 * the detector's per-response `embed` calls from memory: same vectors, a fraction of the calls.
 * The cache is in memory only: a run embeds its sentences in the same batches every time.
 */
import type { SentenceEncoder } from "../../src/guardrails/system-prompt-protection/detector/semantic.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import type { Precision } from "../../src/models/use-lite/precision.js";
import { openVectorCache } from "../lib/vector-cache.js";

/** Sentences per `encoder.embed` call: part of what the vectors are (lib/vector-cache.ts). */
const CHUNK = 2048;

export async function precomputedEncoder(
  texts: Iterable<string>,
  threads: number,
  precision: Precision = "fp32",
): Promise<SentenceEncoder> {
  const encoder = createUseLiteEncoder({ intraOpThreads: threads, maxBatch: 64, precision });
  const cache = openVectorCache(encoder.dim);
  try {
    await cache.fill(cache.missing(texts), CHUNK, async (batch) =>
      (await encoder.embed(batch)).map((v) => [Float32Array.from(v)]),
    );
  } finally {
    await encoder.close();
  }
  return {
    embed: async (batch) =>
      batch.map((t) => {
        const v = cache.get(t)?.[0];
        if (!v) throw new Error(`sentence was not precomputed: ${t.slice(0, 60)}`);
        return v;
      }),
  };
}
