/**
 * Sentence windows for texts longer than the encoder's token limit, so nothing is cut silently:
 * an instruction hidden in the middle of a long e-mail still lands in some window.
 * Windows are whole sentences packed up to `maxTokens` and overlap by `overlap` sentences;
 * a sentence longer than that is split on whitespace (or, for one huge "word", by characters).
 * Each window keeps its character span in the original text.
 */
import { SENTENCE_BREAK } from "./sentences.js";

export interface TextWindow {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** A window's most tokens unless WindowOptions say otherwise. */
export const WINDOW_TOKENS = 96;

export interface WindowOptions {
  /**
   * Where each token of a text ends (Tokenizer.tokenEnds). With it a long text is tokenised once
   * and every word-aligned span is counted from that: windowing 100,000 characters took 60–370 ms
   * of tokenising sentence by sentence and window by window, on the thread that serves requests.
   */
  readonly tokenEnds?: (text: string) => Int32Array | undefined;
  /** Default 96: well under USE-lite's 128, and closer to the sentence lengths it was trained on. */
  readonly maxTokens?: number;
  /** Sentences shared by consecutive windows (default 1). */
  readonly overlap?: number;
  /**
   * One window per sentence (a sentence longer than `maxTokens` in pieces), none packed together:
   * windows that do not depend on where the text starts, so a stream's checks, whose context
   * starts a sentence later each time, share them.
   */
  readonly sentenceEach?: boolean;
}

type Span = readonly [start: number, end: number];

export function splitIntoWindows(
  text: string,
  countTokens: (text: string) => number,
  options: WindowOptions = {},
): TextWindow[] {
  const maxTokens = options.maxTokens ?? WINDOW_TOKENS;
  const overlap = options.overlap ?? 1;
  const tokenise = ([s, e]: Span): number => countTokens(text.slice(s, e));
  const onePass = onePassCounter(text, options.tokenEnds, maxTokens);
  const count = onePass?.count ?? tokenise;
  // Chunks of one word start mid-word, where only tokenising the chunk itself counts exactly.
  const cutWord = onePass?.cut ?? ((span: Span) => splitChars(text, span, maxTokens, tokenise));
  const fits = (span: Span): boolean => count(span) <= maxTokens;
  const whole = trim(text, 0, text.length);
  if (!whole) return [];
  if (!options.sentenceEach && fits(whole)) return [toWindow(text, whole)];

  const units: Span[] = [];
  const sizes: number[] = [];
  for (const span of sentences(text)) {
    const size = count(span);
    if (size <= maxTokens) {
      units.push(span);
      sizes.push(size);
    } else {
      for (const piece of splitLong(text, span, maxTokens, count, cutWord)) {
        units.push(piece);
        sizes.push(count(piece));
      }
    }
  }
  if (options.sentenceEach) return units.map((unit) => toWindow(text, unit));
  const windows: TextWindow[] = [];
  for (let i = 0; i < units.length; ) {
    const j = pack(units, sizes, i, maxTokens, fits);
    windows.push(toWindow(text, [(units[i] as Span)[0], (units[j] as Span)[1]]));
    if (j === units.length - 1) break;
    i = Math.max(i + 1, j + 1 - overlap);
  }
  return windows;
}

/**
 * The last unit of the window that starts at unit `i`. Each unit is tokenised once: SentencePiece
 * segments every space-separated word on its own, so a window's token count is nearly the sum of
 * its units' counts; only the packed window is tokenised again, and units come off its end until
 * it fits (a newline or tab between units can shift the count by a token). Tokenising every
 * growing prefix instead cost 0.5 ms per 80-token text, more than the rest of the request.
 */
function pack(
  units: readonly Span[],
  sizes: readonly number[],
  i: number,
  maxTokens: number,
  fits: (span: Span) => boolean,
): number {
  let j = i;
  let total = sizes[i] as number;
  while (j + 1 < units.length && total + (sizes[j + 1] as number) <= maxTokens) total += sizes[++j] as number;
  while (j > i && !fits([(units[i] as Span)[0], (units[j] as Span)[1]])) j--;
  return j;
}

function sentences(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const m of text.matchAll(SENTENCE_BREAK)) {
    const span = trim(text, start, m.index);
    if (span) spans.push(span);
    start = m.index + m[0].length;
  }
  const tail = trim(text, start, text.length);
  if (tail) spans.push(tail);
  return spans;
}

/** Greedy word chunks that fit; consecutive chunks share their boundary word for context. */
function splitLong(
  text: string,
  [start, end]: Span,
  maxTokens: number,
  count: (span: Span) => number,
  cutWord: (span: Span) => Span[],
): Span[] {
  const fits = (span: Span): boolean => count(span) <= maxTokens;
  const words = [...text.slice(start, end).matchAll(/\S+/g)].map(
    (m): Span => [start + m.index, start + m.index + m[0].length],
  );
  const sizes = words.map(count);
  const chunks: Span[] = [];
  for (let i = 0; i < words.length; ) {
    const first = words[i] as Span;
    if ((sizes[i] as number) > maxTokens) {
      chunks.push(...cutWord(first));
      i++;
      continue;
    }
    const j = pack(words, sizes, i, maxTokens, fits);
    chunks.push([first[0], (words[j] as Span)[1]]);
    i = j + 1 < words.length && j > i ? j : j + 1;
  }
  return chunks;
}

/**
 * A single run without spaces (base64, a URL, 100,000 digits): chunks that fit, each tokenised a
 * few times at most. The chunk length is guessed from the density of tokens seen so far and
 * shrunk in proportion until it fits, so the cost stays linear in the run's length: bisecting
 * from each chunk to the end of the run instead tokenised the rest of the run ~17 times per
 * chunk, and one 100,000-character word held the event loop for 3 s.
 */
function splitChars(
  text: string,
  [start, end]: Span,
  maxTokens: number,
  count: (span: Span) => number,
): Span[] {
  const chunks: Span[] = [];
  // Tokens never outnumber code units by more than 2 (a separator and one piece per character).
  let guess = Math.max(1, Math.floor(((end - start) * maxTokens) / Math.max(1, count([start, end]))));
  for (let s = start; s < end; ) {
    let length = Math.min(guess, end - s);
    for (;;) {
      const tokens = count([s, safeCut(text, s + length, end) as number]);
      if (tokens <= maxTokens || length === 1) break;
      length = Math.max(1, Math.min(length - 1, Math.floor((length * maxTokens * 0.9) / tokens)));
    }
    const cut = safeCut(text, s + length, end) as number;
    chunks.push([s, cut]);
    // The next chunk starts from this one's length and may grow, at most doubling, where the run thins out.
    guess = length * 2;
    s = cut;
  }
  return chunks;
}

/** Never cut a surrogate pair in half. */
const safeCut = (text: string, at: number, end: number): number =>
  at < end && /[\ud800-\udbff]/.test(text[at - 1] ?? "") ? at + 1 : at;

/**
 * Texts longer than this are counted from one tokenisation (onePassCounter). Shorter ones, every
 * ordinary prompt and document, are tokenised span by span as the models were trained: the two
 * can differ by a token where two segmentations of a span's first word score exactly alike
 * (":" alone is "▁", ":"; after a word it is "▁:"), which moved a window in 35 of 12,536 texts.
 */
const ONE_PASS_CHARS = 16_000;

/**
 * Token counts of word-aligned spans (starting at the text's start or after a space, ending at its
 * end or before one) from one tokenisation of the whole text: the tokens ending inside the span,
 * found by binary search; and a word too long for a window cut at its own token ends, a little
 * under `maxTokens` a chunk since a chunk starting mid-word gains a separator when tokenised
 * alone. Only for long text whose only whitespace is the space, the one character the tokenizer
 * turns into a separator; undefined otherwise, or without `tokenEnds`.
 */
function onePassCounter(
  text: string,
  tokenEnds: ((text: string) => Int32Array | undefined) | undefined,
  maxTokens = 96,
): { count: (span: Span) => number; cut: (span: Span) => Span[] } | undefined {
  if (!tokenEnds || text.length <= ONE_PASS_CHARS || /[^\S ]/.test(text)) return undefined;
  const ends = tokenEnds(text);
  if (!ends) return undefined;
  // Code points before each UTF-16 offset: token ends count code points, after one separator.
  const points = new Int32Array(text.length + 1);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const low = unit >= 0xdc00 && unit <= 0xdfff && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
    points[i + 1] = (points[i] as number) + (low ? 0 : 1);
  }
  const endingBy = (at: number): number => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] as number) <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // The UTF-16 offset after each code point: token k of the text ends at offsets[ends[k] - 1].
  const offsets = new Int32Array((points[text.length] as number) + 1);
  for (let i = 0; i <= text.length; i++) offsets[points[i] as number] = i;
  const count = ([s, e]: Span) => endingBy(1 + (points[e] as number)) - endingBy(points[s] as number);
  const step = Math.max(1, maxTokens - 2);
  const cut = ([start, end]: Span): Span[] => {
    const chunks: Span[] = [];
    const last = endingBy(1 + (points[end] as number)) - 1;
    for (let first = endingBy(points[start] as number), s = start; s < end; first += step) {
      const at = Math.min(first + step - 1, last);
      const e = Math.min(end, offsets[(ends[at] as number) - 1] as number);
      chunks.push([s, e]);
      s = e;
    }
    return chunks;
  };
  return { count, cut };
}

function trim(text: string, start: number, end: number): Span | undefined {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] as string)) s++;
  while (e > s && /\s/.test(text[e - 1] as string)) e--;
  return s < e ? [s, e] : undefined;
}

const toWindow = (text: string, [start, end]: Span): TextWindow => ({
  text: text.slice(start, end),
  start,
  end,
});
