import { type Encoder, withEmbed } from "../models/encoder.js";

/**
 * An encoder for one text judged by several profiles (`checkEach`): each distinct window text goes
 * to the model once, and a profile asking for a window already asked for, or still on its way,
 * gets the same vector. In-flight texts count too: the profiles' guardrails ask at the same time.
 * It lives as long as one check, so it holds one text's windows and needs no bound.
 */
export function sharedVectors(inner: Encoder): Encoder {
  const known = new Map<string, Promise<Float32Array>>();
  return withEmbed(inner, (texts, options) => {
    const missing = [...new Set(texts.filter((t) => !known.has(t)))];
    if (missing.length > 0) {
      const vectors = inner.embed(missing, options);
      missing.forEach((t, i) => {
        known.set(
          t,
          vectors.then((v) => v[i] as Float32Array),
        );
      });
    }
    return Promise.all(texts.map((t) => known.get(t) as Promise<Float32Array>));
  });
}
