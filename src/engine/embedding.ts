import type { Encoder } from "../models/encoder.js";
import { splitIntoWindows, type TextWindow } from "../models/use-lite/windows.js";

/** A text cut into sentence windows (never silently truncated), one unit vector per window. */
export interface EmbeddedText {
  readonly windows: readonly TextWindow[];
  readonly vectors: readonly Float32Array[];
}

/** Windows and embeds a text with one encoder call. An empty text has no windows. */
export async function embedText(encoder: Encoder, text: string): Promise<EmbeddedText> {
  const windows = splitIntoWindows(text, (t) => encoder.countTokens(t));
  const vectors = windows.length > 0 ? await encoder.embed(windows.map((w) => w.text)) : [];
  return { windows, vectors };
}

/**
 * The embedding of one request's text, computed on first use and shared: however many guardrails
 * ask, the encoder runs once per request (and not at all when no enabled guardrail needs it).
 */
export function lazyEmbedding(encoder: Encoder, text: string): () => Promise<EmbeddedText> {
  let memo: Promise<EmbeddedText> | undefined;
  return () => {
    memo ??= embedText(encoder, text);
    return memo;
  };
}
