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

/** One request's shared embeddings: its windows, and its sentence pieces (see pieceWindows). */
export interface RequestEmbeddings {
  readonly embedding: () => Promise<EmbeddedText>;
  readonly pieces: () => Promise<EmbeddedText>;
}

/**
 * The embeddings of one request's text, each computed on first use and shared: however many
 * guardrails ask, the encoder runs once for the windows and at most once for the pieces (and not at
 * all when no enabled guardrail needs them). Both derive from one split into windows, done on this
 * thread, so asking for the pieces never waits for the windows' vectors: with an encoder pool the
 * two calls run at once.
 */
export function requestEmbeddings(encoder: Encoder, text: string): RequestEmbeddings {
  const count = (t: string) => encoder.countTokens(t);
  let windows: TextWindow[] | undefined;
  const split = () => {
    windows ??= splitIntoWindows(text, count);
    return windows;
  };
  const embed = async (units: TextWindow[]): Promise<EmbeddedText> =>
    units.length > 0 ? { windows: units, vectors: await encoder.embed(units.map((u) => u.text)) } : NONE;
  return {
    embedding: once(() => embed(split())),
    pieces: once(() => embed(pieceWindows(text, split(), count))),
  };
}

/** Windows and embeds a text with one encoder call, now. An empty text has no windows. */
export const embedText = (encoder: Encoder, text: string): Promise<EmbeddedText> =>
  requestEmbeddings(encoder, text).embedding();

/** Only the windows' embedding (a prompt's, say), shared the same way. */
export const lazyEmbedding = (encoder: Encoder, text: string): (() => Promise<EmbeddedText>) =>
  requestEmbeddings(encoder, text).embedding;

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let memo: Promise<T> | undefined;
  return () => {
    memo ??= make();
    return memo;
  };
}
