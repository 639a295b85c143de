/**
 * Embeds every sentence the evaluation will ask for in a few large batches up front, then serves
 * the detector's per-response `embed` calls from memory: same vectors, a fraction of the calls.
 */
import type { SentenceEncoder } from "../../src/guardrails/system-prompt-protection/detector/semantic.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";

export async function precomputedEncoder(texts: Iterable<string>, threads: number): Promise<SentenceEncoder> {
  const encoder = createUseLiteEncoder({ intraOpThreads: threads, maxBatch: 64 });
  const unique = [...new Set(texts)];
  const cache = new Map<string, Float32Array>();
  try {
    for (let i = 0; i < unique.length; i += 2048) {
      const batch = unique.slice(i, i + 2048);
      const vectors = await encoder.embed(batch);
      for (const [j, t] of batch.entries()) cache.set(t, Float32Array.from(vectors[j] as Float32Array));
    }
  } finally {
    await encoder.close();
  }
  return {
    embed: async (batch) =>
      batch.map((t) => {
        const v = cache.get(t);
        if (!v) throw new Error(`sentence was not precomputed: ${t.slice(0, 60)}`);
        return v;
      }),
  };
}
