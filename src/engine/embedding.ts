import type { Encoder } from "../models/encoder.js";
import { selectWindows, type Triage } from "../models/window-budget.js";
import { unfinishedSentenceStart } from "../text/sentences.js";
import { splitIntoWindows, type TextWindow, WINDOW_TOKENS, type WindowOptions } from "../text/windows.js";

/** A text cut into sentence windows (never silently truncated), one unit vector per window. */
export interface EmbeddedText {
  readonly windows: readonly TextWindow[];
  readonly vectors: readonly Float32Array[];
  /**
   * Windows of a text longer than the encoder budget (MAX_ENCODED_WINDOWS) that were not embedded.
   * Guardrails that read vectors score these by cheaper means (see each guardrail); absent or
   * empty for every text within the budget.
   */
  readonly skipped?: readonly TextWindow[];
}

const NONE: EmbeddedText = { windows: [], vectors: [] };

/**
 * The most windows of one text the encoder embeds: about 6,000 tokens, 25,000 characters of
 * English prose, so ordinary prompts, e-mails and documents are embedded whole. Past it a text is
 * triaged: the windows a cheap score finds most suspicious are embedded, the rest are scored by
 * cheaper means. Without the cap one 100,000-character request of digits or combining marks
 * made 1,000–4,000 windows and kept the encoder busy for 20–60 s.
 */
export const MAX_ENCODED_WINDOWS = 64;

/**
 * Sentence pieces: whole sentences up to 32 tokens, no overlap. An injected sentence that shares a
 * ≤96-token window with harmless text shares its vector too, and scores far below the sentence
 * alone; a piece keeps it whole and alone (figures in models/vector/README.md).
 */
export const PIECE_WINDOWS: WindowOptions = { maxTokens: 32, overlap: 0 };
/** About 1,500 words: past this the pieces would double the encoder's work on huge inputs. */
export const MAX_PIECES = 64;

/**
 * The sentence pieces of a text that spans more than one window (and has at most MAX_PIECES of
 * them); none otherwise. A text of one window gets no pieces: embedding them would double the
 * encoder's work on every ordinary prompt, and in a short text an injected sentence is a large
 * share of its window anyway. A text of more than MAX_PIECES windows has more pieces than that
 * (every window holds at least one), so it is not split again.
 */
export function pieceWindows(
  text: string,
  windows: readonly TextWindow[],
  countTokens: (text: string) => number,
  options: Pick<WindowOptions, "tokenEnds"> = {},
  maxPieces = MAX_PIECES,
): TextWindow[] {
  if (windows.length < 2 || windows.length > maxPieces) return [];
  const pieces = splitIntoWindows(text, countTokens, { ...PIECE_WINDOWS, ...options });
  return pieces.length <= maxPieces ? pieces : [];
}

export interface EmbeddingOptions {
  /** Chooses the windows of an over-budget text (see selectWindows). */
  readonly triage?: Triage;
  /** Windows embedded at most (default MAX_ENCODED_WINDOWS). */
  readonly budget?: number;
  /** Sentence pieces embedded at most (default MAX_PIECES): a text with more gets none. */
  readonly maxPieces?: number;
  /** Aborts the encoder work of a request whose client has gone. */
  readonly signal?: AbortSignal;
  /**
   * The text is a chunk of a streamed response with its context: `embedding` reads the sentences
   * before its unfinished last one (see settledWindows), `wholeEmbedding` every window.
   */
  readonly streamChunk?: boolean;
}

/**
 * The windows of a chunk of a stream that later chunks cannot change: each sentence that has
 * ended, on its own (`split` cuts one window per sentence). A window reaching into the unfinished
 * sentence changes with every chunk: embedding it cost one encoder run per chunk (a streamed
 * response cost ~25× its one-shot check), and a half sentence read as a sentence is judged wrongly
 * both ways. Packed windows would change whenever the context starts a sentence later; sentences
 * on their own are embedded once per stream and then served by the vector cache. A sentence longer
 * than a window is cut into word pieces from its start: all but its last piece are fixed, so they
 * count too.
 */
export function settledWindows(
  text: string,
  unfinishedFrom: number,
  split: (text: string) => TextWindow[],
  countTokens: (text: string) => number,
): TextWindow[] {
  const ended = unfinishedFrom > 0 ? split(text.slice(0, unfinishedFrom)) : [];
  if (unfinishedFrom >= text.length || countTokens(text.slice(unfinishedFrom)) <= WINDOW_TOKENS) return ended;
  const pieces = split(text.slice(unfinishedFrom)).map((w) => ({
    text: w.text,
    start: w.start + unfinishedFrom,
    end: w.end + unfinishedFrom,
  }));
  return [...ended, ...pieces.slice(0, -1)];
}

/** One request's shared embeddings: its windows, and its sentence pieces (see pieceWindows). */
export interface RequestEmbeddings {
  readonly embedding: () => Promise<EmbeddedText>;
  readonly pieces: () => Promise<EmbeddedText>;
  /** With `streamChunk`: every window, the unfinished sentence's too (see CheckRequest). */
  readonly wholeEmbedding?: () => Promise<EmbeddedText>;
}

/**
 * The embeddings of one request's text, each computed on first use and shared: however many
 * guardrails ask, the encoder runs once for the windows and at most once for the pieces (and not at
 * all when no enabled guardrail needs them). Both derive from one split into windows, done on this
 * thread, so asking for the pieces never waits for the windows' vectors: with an encoder pool the
 * two calls run at once.
 */
export function requestEmbeddings(
  encoder: Encoder,
  text: string,
  options: EmbeddingOptions = {},
): RequestEmbeddings {
  const count = (t: string) => encoder.countTokens(t);
  const tokenEnds = encoder.tokenEnds ? { tokenEnds: (t: string) => encoder.tokenEnds?.(t) } : {};
  const signal = options.signal ? { signal: options.signal } : {};
  let windows: TextWindow[] | undefined;
  const split = () => {
    windows ??= splitIntoWindows(text, count, tokenEnds);
    return windows;
  };
  const embed = async (units: readonly TextWindow[], skipped: readonly TextWindow[] = []) => {
    if (units.length === 0) return skipped.length > 0 ? { ...NONE, skipped } : NONE;
    const vectors = await encoder.embed(
      units.map((u) => u.text),
      signal,
    );
    return skipped.length > 0 ? { windows: units, vectors, skipped } : { windows: units, vectors };
  };
  const embedWithin = (windows: readonly TextWindow[]) => {
    const { chosen, skipped } = selectWindows(windows, options.budget ?? MAX_ENCODED_WINDOWS, options.triage);
    return embed(chosen, skipped);
  };
  const whole = once(() => embedWithin(split()));
  const sentenceEach = (t: string) => splitIntoWindows(t, count, { ...tokenEnds, sentenceEach: true });
  // Found only when a guardrail asks: a rules-only profile never scans for it.
  const settled = once(() =>
    embedWithin(settledWindows(text, unfinishedSentenceStart(text), sentenceEach, count)),
  );
  return {
    embedding: options.streamChunk ? settled : whole,
    pieces: once(() => embed(pieceWindows(text, split(), count, tokenEnds, options.maxPieces))),
    ...(options.streamChunk ? { wholeEmbedding: whole } : {}),
  };
}

/** Windows and embeds a text with one encoder call, now. An empty text has no windows. */
export const embedText = (
  encoder: Encoder,
  text: string,
  options?: EmbeddingOptions,
): Promise<EmbeddedText> => requestEmbeddings(encoder, text, options).embedding();

/** Only the windows' embedding (a prompt's, say), shared the same way. */
export const lazyEmbedding = (
  encoder: Encoder,
  text: string,
  options?: EmbeddingOptions,
): (() => Promise<EmbeddedText>) => requestEmbeddings(encoder, text, options).embedding;

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let memo: Promise<T> | undefined;
  return () => {
    memo ??= make();
    return memo;
  };
}
