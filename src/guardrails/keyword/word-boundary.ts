/**
 * Unicode-aware whole-word test for a match at [start, end). ASCII `\b` sees "ignoré" or
 * "игнор" as made of non-word characters; here letters, marks, digits and connector
 * punctuation of every script are word characters (the UAX #29 notion, simplified).
 */
const WORD = /[\p{L}\p{M}\p{N}\p{Pc}]/u;

// Scripts written without spaces between words (UAX #29 puts a boundary around each of their
// characters): requiring spaces around a Chinese or Thai keyword would make it never match.
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

/** ASCII letters, digits and "_" join words; the Unicode tests run only past ASCII. */
function joins(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code < 0x80) {
    return (
      (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
    );
  }
  return WORD.test(ch) && !SPACELESS.test(ch);
}

function charBefore(text: string, index: number): string | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && index >= 2;
  return String.fromCodePoint(text.codePointAt(pair ? index - 2 : index - 1) as number);
}

function charAt(text: string, index: number): string | undefined {
  return index < text.length ? String.fromCodePoint(text.codePointAt(index) as number) : undefined;
}

/**
 * True when the match does not continue a word on either side. An edge only needs a boundary
 * when the keyword itself starts (or ends) with a word character: "c++" or "$$" may be followed
 * by anything, as with `\b` in a regex.
 */
export function isWholeWord(text: string, start: number, end: number): boolean {
  if (joins(charAt(text, start)) && joins(charBefore(text, start))) return false;
  if (joins(charBefore(text, end)) && joins(charAt(text, end))) return false;
  return true;
}
