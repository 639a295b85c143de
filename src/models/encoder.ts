/**
 * The one sentence-encoder interface every model-backed guardrail shares. An engine embeds a
 * request's texts once and hands the vectors to each guardrail that needs them.
 */
export interface EncoderInfo {
  /** Changes whenever the vectors could change (weights, tokenizer, converter): key caches on it. */
  readonly id: string;
  /**
   * The id of the encoder whose vectors these match within a measured tolerance (the int8
   * USE-lite's fp32 original): what was built with that one, such as a vector index, serves as is.
   */
  readonly approximates?: string;
  readonly modelPath: string;
  /** Time the first load took, including any rebuild of the model file. */
  readonly loadMs: number;
}

export interface EmbedOptions {
  readonly signal?: AbortSignal;
}

export interface Encoder {
  /** Length of every vector. */
  readonly dim: number;
  /** Tokens past this many are ignored by the model: window long texts (see src/text/windows.ts). */
  readonly maxTokens: number;
  /** Loads the model once; concurrent and later calls share the same load. Call early to warm up. */
  load(): Promise<EncoderInfo>;
  /**
   * One unit vector per text, in order (an empty text gets a zero vector); loads on first use.
   * An aborted `signal` rejects the call and drops its work not yet started.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Token count as the model sees it, before its maxTokens cut. */
  countTokens(text: string): number;
  /** Where each token ends (see Tokenizer.tokenEnds), for windowing a long text in one pass. */
  tokenEnds?(text: string): Int32Array | undefined;
  close(): Promise<void>;
}

/**
 * `inner` with another `embed`: encoders that wrap one (a vector cache, a batcher) change only how
 * texts reach the model, and pass everything else through.
 */
export function withEmbed(inner: Encoder, embed: Encoder["embed"]): Encoder {
  return {
    dim: inner.dim,
    maxTokens: inner.maxTokens,
    load: () => inner.load(),
    countTokens: (text) => inner.countTokens(text),
    ...(inner.tokenEnds ? { tokenEnds: (text: string) => inner.tokenEnds?.(text) } : {}),
    close: () => inner.close(),
    embed,
  };
}

/** Cosine similarity; 0 when either vector is zero (an empty text). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
