/**
 * Sentence windows for texts longer than the encoder's token limit, so nothing is cut silently:
 * an instruction hidden in the middle of a long e-mail still lands in some window.
 * Windows are whole sentences packed up to `maxTokens` and overlap by `overlap` sentences;
 * a sentence longer than that is split on whitespace (or, for one huge "word", by characters).
 * Each window keeps its character span in the original text.
 */
export interface TextWindow {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface WindowOptions {
  /** Default 96: well under USE-lite's 128, and closer to the sentence lengths it was trained on. */
  readonly maxTokens?: number;
  /** Sentences shared by consecutive windows (default 1). */
  readonly overlap?: number;
}

type Span = readonly [start: number, end: number];

// A sentence ends after terminal punctuation (and closing quotes) followed by space, or at a newline.
const BOUNDARY = /(?<=[.!?…。！？]["'”’)\]]*)\s+|\s*\n\s*/g;

export function splitIntoWindows(
  text: string,
  countTokens: (text: string) => number,
  options: WindowOptions = {},
): TextWindow[] {
  const maxTokens = options.maxTokens ?? 96;
  const overlap = options.overlap ?? 1;
  const count = ([s, e]: Span): number => countTokens(text.slice(s, e));
  const fits = (span: Span): boolean => count(span) <= maxTokens;
  const whole = trim(text, 0, text.length);
  if (!whole) return [];
  if (fits(whole)) return [toWindow(text, whole)];

  const units: Span[] = [];
  const sizes: number[] = [];
  for (const span of sentences(text)) {
    const size = count(span);
    if (size <= maxTokens) {
      units.push(span);
      sizes.push(size);
    } else {
      for (const piece of splitLong(text, span, maxTokens, count)) {
        units.push(piece);
        sizes.push(count(piece));
      }
    }
  }
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
  for (const m of text.matchAll(BOUNDARY)) {
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
      chunks.push(...splitChars(text, first, fits));
      i++;
      continue;
    }
    const j = pack(words, sizes, i, maxTokens, fits);
    chunks.push([first[0], (words[j] as Span)[1]]);
    i = j + 1 < words.length && j > i ? j : j + 1;
  }
  return chunks;
}

/** A single run without spaces (base64, a URL): the longest prefixes that fit, by bisection. */
function splitChars(text: string, [start, end]: Span, fits: (span: Span) => boolean): Span[] {
  const chunks: Span[] = [];
  for (let s = start; s < end; ) {
    let lo = s + 1;
    let hi = end;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits([s, mid])) lo = mid;
      else hi = mid - 1;
    }
    // Never cut a surrogate pair in half.
    const cut = lo < end && /[\ud800-\udbff]/.test(text[lo - 1] ?? "") ? lo + 1 : lo;
    chunks.push([s, cut]);
    s = cut;
  }
  return chunks;
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
