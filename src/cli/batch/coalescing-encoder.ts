import { type Encoder, withEmbed } from "../../models/encoder.js";

/**
 * An encoder that gathers the `embed` calls made in the same turn of the event loop (the rows of
 * one batch, checked together) into one call to the model, then hands each caller its vectors.
 */
export function coalescingEncoder(inner: Encoder, maxTexts = 256): Encoder {
  let pending: {
    texts: readonly string[];
    resolve: (v: Float32Array[]) => void;
    reject: (e: unknown) => void;
  }[] = [];
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const calls = pending;
    pending = [];
    for (let start = 0; start < calls.length; ) {
      let end = start;
      let count = 0;
      while (end < calls.length && (count === 0 || count + (calls[end]?.texts.length ?? 0) <= maxTexts)) {
        count += calls[end]?.texts.length ?? 0;
        end++;
      }
      const group = calls.slice(start, end);
      try {
        const vectors = await inner.embed(group.flatMap((c) => c.texts));
        let at = 0;
        for (const call of group) {
          call.resolve(vectors.slice(at, at + call.texts.length));
          at += call.texts.length;
        }
      } catch (error) {
        for (const call of group) call.reject(error);
      }
      start = end;
    }
  };
  return withEmbed(
    inner,
    (texts) =>
      new Promise((resolve, reject) => {
        pending.push({ texts, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
  );
}
