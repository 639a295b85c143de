import { foldConfusables } from "./confusables.js";

/**
 * One normalisation pass per request, shared by every guardrail.
 * - `raw`: the text as received.
 * - `clean`: NFKC, invisible characters removed, whitespace collapsed. Case and script kept,
 *   so detectors that care about shape (PII, checksums) read this one.
 * - `folded`: `clean` with accents stripped, confusable letters folded to Latin and lower-cased:
 *   what rule matchers (keywords) compare against, after folding their rules the same way.
 */
export interface NormalizedText {
  readonly raw: string;
  readonly clean: string;
  readonly folded: string;
}

// Format characters (zero-width space/joiners, bidi controls, soft hyphen, BOM, tag characters),
// variation selectors, the combining grapheme joiner and Hangul fillers: all render as nothing
// and are used to split trigger words.
const INVISIBLE =
  /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180D\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;
// Control characters other than tab and newline become spaces; then every run of Unicode
// whitespace (including line and paragraph separators) becomes one space.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const WHITESPACE = /[\s\p{Zs}\u2028\u2029]+/gu;
// Non-spacing and enclosing marks: accents, strike-through overlays, circles drawn around letters.
const COMBINING_MARK = /[\p{Mn}\p{Me}]/gu;
// Normalising sorts each run of combining marks by class with an insertion sort, quadratic in the
// run: "a" and 100,000 marks of two alternating classes took seconds. Runs are cut to 30 marks,
// the limit of Unicode's Stream-Safe Text Format (UAX #15, section 13); no script needs more.
// (U+FF9E and U+FF9F are letters that NFKC turns into combining marks.)
const MAX_MARKS = 30;
const MARK = /[\p{M}\uFF9E\uFF9F]/u;
// Whether each code point is a mark, filled in on first sight (0: not yet known, 1: mark, 2: not).
const MARKS = new Uint8Array(0x110000);

function isMark(code: number): boolean {
  // Nothing below U+0300 is a combining mark.
  if (code < 0x300) return false;
  let known = MARKS[code] as number;
  if (known === 0) {
    known = MARK.test(String.fromCodePoint(code)) ? 1 : 2;
    MARKS[code] = known;
  }
  return known === 1;
}

/** Drops the marks of a run after its 30th (a loop: a regex spends more than NFKC itself). */
function capMarkRuns(text: string): string {
  const pieces: string[] = [];
  let kept = 0;
  let run = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    run = isMark(code) ? run + 1 : 0;
    if (run > MAX_MARKS) {
      if (i > kept) pieces.push(text.slice(kept, i));
      kept = i + width;
    }
    i += width;
  }
  if (kept === 0) return text;
  pieces.push(text.slice(kept));
  return pieces.join("");
}

export function cleanText(text: string): string {
  // Cut before NFKC, and again once the invisible characters that can split a run are gone.
  const composed = capMarkRuns(text).normalize("NFKC").replace(INVISIBLE, "");
  return capMarkRuns(composed).replace(CONTROL, " ").replace(WHITESPACE, " ").trim();
}

function foldClean(clean: string): string {
  const stripped = clean.normalize("NFD").replace(COMBINING_MARK, "").normalize("NFC");
  // Folded again after lower-casing: an upper-case letter missing from the table (Cyrillic Ԁ)
  // can lower-case to one in it (ԁ → d), and "ԀROP" must fold like "ԁrop".
  return foldConfusables(foldConfusables(stripped).toLowerCase());
}

/** The folding applied to the text, exported so rules (keywords) are folded the same way. */
export function foldText(text: string): string {
  return foldClean(cleanText(text));
}

// What cleaning or folding removes, replaces or decomposes, besides decomposable characters.
const SPECIAL = new RegExp(`${INVISIBLE.source}|${CONTROL.source}|${WHITESPACE.source}|\\p{M}`, "u");

/**
 * `foldText(ch).length` for one character. One with no decomposition that is none of the above
 * folds to one character of its own length (a lower-case letter, a look-alike's ASCII letter), and
 * checking that costs a fifth of folding it (test/text/normalize.test.ts tries every code point).
 */
export function foldedLength(ch: string): number {
  return ch.normalize("NFKD") === ch && !SPECIAL.test(ch) ? ch.length : foldText(ch).length;
}

export function normalizeText(raw: string): NormalizedText {
  const clean = cleanText(raw);
  return { raw, clean, folded: foldClean(clean) };
}
