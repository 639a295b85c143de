import { foldedLength, type NormalizedText } from "./normalize.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is the point
const ASCII = /^[\u0000-\u007f]*$/;
const MAX_MEMO = 10_000;

/**
 * Maps offsets in `text.folded` back to `text.clean`, so spans found on the folded text point at
 * what the user wrote (`Span` is defined on `clean`). Folding works character by character
 * except in rare recompositions, so each clean character is folded alone and the lengths are
 * laid end to end. Built only when something matched: the common no-match path pays nothing.
 */
export function foldedToClean(
  text: NormalizedText,
  // Folded length per non-ASCII code point, kept by the caller across requests.
  lengths: Map<number, number> = new Map(),
): (offset: number) => number {
  const { clean, folded } = text;
  // ASCII only changes case when folded: offsets are the same.
  if (clean === folded || ASCII.test(clean)) return (offset) => offset;
  const map = new Int32Array(folded.length + 1);
  let at = 0;
  for (let i = 0; i < clean.length; ) {
    const cp = clean.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    // ASCII folds to one character (case only). The clean text's only whitespace is " ",
    // which foldText alone would trim away.
    let length = cp < 0x80 ? 1 : lengths.get(cp);
    if (length === undefined) {
      length = foldedLength(String.fromCodePoint(cp));
      if (lengths.size < MAX_MEMO) lengths.set(cp, length);
    }
    for (let j = 0; j < length && at < map.length; j++) map[at++] = i;
    i += width;
  }
  // A recomposition across characters (say, Hangul jamo once separated by a stripped mark) makes
  // the lengths disagree; offsets then stay approximate, clamped inside the clean text.
  for (; at < map.length; at++) map[at] = clean.length;
  return (offset) => Math.min(map[Math.max(0, Math.min(offset, folded.length))] as number, clean.length);
}

/**
 * A folded [start, end) range as a clean one. `end` is where the next folded character comes
 * from, so marks that fold to nothing stay with the letter they sit on.
 */
export function toCleanRange(
  toClean: (offset: number) => number,
  clean: string,
  start: number,
  end: number,
): { start: number; end: number } {
  const cleanStart = toClean(start);
  if (end <= start) return { start: cleanStart, end: cleanStart };
  // A character that folds to several (none in practice today) can end a match midway.
  const last = toClean(end - 1);
  const lastEnd = last + ((clean.codePointAt(last) ?? 0) > 0xffff ? 2 : 1);
  return { start: cleanStart, end: Math.min(clean.length, Math.max(toClean(end), lastEnd)) };
}
