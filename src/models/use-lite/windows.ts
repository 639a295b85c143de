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
  const fits = ([s, e]: Span): boolean => countTokens(text.slice(s, e)) <= maxTokens;
  const whole = trim(text, 0, text.length);
  if (!whole) return [];
  if (fits(whole)) return [toWindow(text, whole)];

  const units = sentences(text).flatMap((span) => (fits(span) ? [span] : splitLong(text, span, fits)));
  const windows: TextWindow[] = [];
  for (let i = 0; i < units.length; ) {
    let j = i;
    while (j + 1 < units.length && fits([(units[i] as Span)[0], (units[j + 1] as Span)[1]])) j++;
    windows.push(toWindow(text, [(units[i] as Span)[0], (units[j] as Span)[1]]));
    if (j === units.length - 1) break;
    i = Math.max(i + 1, j + 1 - overlap);
  }
  return windows;
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
function splitLong(text: string, [start, end]: Span, fits: (span: Span) => boolean): Span[] {
  const words = [...text.slice(start, end).matchAll(/\S+/g)].map(
    (m): Span => [start + m.index, start + m.index + m[0].length],
  );
  const chunks: Span[] = [];
  for (let i = 0; i < words.length; ) {
    const first = words[i] as Span;
    if (!fits(first)) {
      chunks.push(...splitChars(text, first, fits));
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < words.length && fits([first[0], (words[j + 1] as Span)[1]])) j++;
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
