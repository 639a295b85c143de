import { type EmbedOptions, type Encoder, withEmbed } from "../../models/encoder.js";

interface Batch {
  readonly texts: string[];
  readonly vectors: Promise<Float32Array[]>;
}

/**
 * An encoder for one conversation's check: the embed calls its texts make in one turn of the event
 * loop (every part's guardrails start together) go to the model as one call, so a conversation costs
 * one encoder pass over its windows, as one message does, and holds one place in the encoder
 * pool's fair queue, not one per message. A window text two messages share is embedded once. It
 * lives as long as one check, so it needs no bound. The first call's options (the request's abort
 * signal) go with the batch: every call of one check passes the same.
 */
export function gatheredVectors(inner: Encoder): Encoder {
  const known = new Map<string, Promise<Float32Array>>();
  let open: Batch | undefined;
  const batchFor = (options: EmbedOptions | undefined): Batch => {
    if (open) return open;
    const texts: string[] = [];
    const vectors = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      open = undefined;
      return inner.embed(texts, options);
    });
    open = { texts, vectors };
    return open;
  };
  return withEmbed(inner, (texts, options) => {
    for (const text of new Set(texts)) {
      if (known.has(text)) continue;
      const batch = batchFor(options);
      const at = batch.texts.push(text) - 1;
      known.set(
        text,
        batch.vectors.then((vectors) => vectors[at] as Float32Array),
      );
    }
    return Promise.all(texts.map((t) => known.get(t) as Promise<Float32Array>));
  });
}
