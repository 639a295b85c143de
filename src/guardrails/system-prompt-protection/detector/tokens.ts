import { foldText } from "../../../text/normalize.js";

const WORD = /[\p{L}\p{N}]+/gu;
// Han and kana are written without spaces: one character stands in for one word, so shingles
// still line up when a Chinese or Japanese prompt is quoted.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Folded word tokens. Punctuation, markdown markup, bullets, code fences, case and runs of
 * whitespace all vanish, so a prompt re-typed as a bullet list or a code block still matches.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of foldText(text).matchAll(WORD)) {
    const w = m[0];
    if (UNSPACED.test(w)) for (const ch of w) out.push(ch);
    else out.push(w);
  }
  return out;
}

/** Joins `n` tokens from `i` into one shingle key. */
export function shingle(tokens: readonly string[], i: number, n: number): string {
  return tokens.slice(i, i + n).join(" ");
}
