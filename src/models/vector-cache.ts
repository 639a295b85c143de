import { type Encoder, withEmbed } from "./encoder.js";

/** Vectors kept at most: 4,096 × 512 floats is 8 MiB, plus the window texts as keys. */
export const DEFAULT_CACHED_VECTORS = 4096;

/**
 * An encoder that remembers the vectors of the texts it embedded most recently. A streamed
 * response is checked chunk by chunk with the text before each chunk as `context`, so each request
 * holds the windows of the one before plus the window the chunk grows; without the cache every
 * chunk re-embedded its whole context. Least recently used vectors go first. The cache holds no
 * request state: any replica answers any chunk the same way.
 */
export function withVectorCache(encoder: Encoder, maxEntries = DEFAULT_CACHED_VECTORS): Encoder {
  const cache = new Map<string, Float32Array>();
  const remember = (text: string, vector: Float32Array) => {
    cache.delete(text);
    cache.set(text, vector);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
  };
  return withEmbed(encoder, async (texts, options) => {
    const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
    const fresh = missing.length > 0 ? await encoder.embed(missing, options) : [];
    const found = new Map(missing.map((t, i) => [t, fresh[i] as Float32Array]));
    return texts.map((t) => {
      const vector = found.get(t) ?? (cache.get(t) as Float32Array);
      remember(t, vector);
      return vector;
    });
  });
}
