import type { Encoder } from "../models/encoder.js";
import { splitIntoWindows, type TextWindow, type WindowOptions } from "../models/use-lite/windows.js";

/** A text cut into sentence windows (never silently truncated), one unit vector per window. */
export interface EmbeddedText {
  readonly windows: readonly TextWindow[];
  readonly vectors: readonly Float32Array[];
}

const NONE: EmbeddedText = { windows: [], vectors: [] };

/**
 * Sentence pieces: whole sentences up to 32 tokens, no overlap. In a ≤96-token window one injected
 * sentence among three harmless ones scored 0.58 against its own paraphrase's 0.84 (vector), and
 * most payloads the llm guardrail missed shared their window with e-mail text; a piece keeps such
 * a sentence whole and alone.
 */
export const PIECE_WINDOWS: WindowOptions = { maxTokens: 32, overlap: 0 };
/** About 1,500 words: past this the pieces would double the encoder's work on huge inputs. */
export const MAX_PIECES = 64;

/** Windows and embeds a text with one encoder call. An empty text has no windows. */
export async function embedText(encoder: Encoder, text: string): Promise<EmbeddedText> {
  const windows = splitIntoWindows(text, (t) => encoder.countTokens(t));
  const vectors = windows.length > 0 ? await encoder.embed(windows.map((w) => w.text)) : [];
  return { windows, vectors };
}

/**
 * The sentence pieces of a text that spans more than one window (and has at most MAX_PIECES of
 * them); none otherwise. A text of one window gets no pieces: embedding them would double the
 * encoder's work on every ordinary prompt, and in a short text an injected sentence is a large
 * share of its window anyway.
 */
export function pieceWindows(
  text: string,
  windows: readonly TextWindow[],
  countTokens: (text: string) => number,
): TextWindow[] {
  if (windows.length < 2) return [];
  const pieces = splitIntoWindows(text, countTokens, PIECE_WINDOWS);
  return pieces.length <= MAX_PIECES ? pieces : [];
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

/** The request's sentence pieces (see pieceWindows) and their vectors, shared the same way. */
export function lazyPieces(
  encoder: Encoder,
  text: string,
  shared: () => Promise<EmbeddedText>,
): () => Promise<EmbeddedText> {
  let memo: Promise<EmbeddedText> | undefined;
  const embed = async (): Promise<EmbeddedText> => {
    const pieces = pieceWindows(text, (await shared()).windows, (t) => encoder.countTokens(t));
    return pieces.length > 0
      ? { windows: pieces, vectors: await encoder.embed(pieces.map((p) => p.text)) }
      : NONE;
  };
  return () => {
    memo ??= embed();
    return memo;
  };
}
