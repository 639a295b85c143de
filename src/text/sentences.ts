/**
 * Where sentences end, one definition for the encoder's windows (src/text/windows.ts) and for
 * streamed responses (an unfinished last sentence is judged differently, see src/engine/engine.ts,
 * and released later, see src/stream/text-bounds.ts).
 *
 * A sentence ends after terminal punctuation (and closing quotes) followed by space, or at a newline.
 * Both alternatives are linear: the closing marks looked behind for are bounded (an unbounded `*`
 * rescanned a run of 50,000 ")" at every one of them: seconds), and a newline's leading spaces are
 * left to trim() instead of a `\s*` that rescans a run of spaces from each of its positions.
 */
export const SENTENCE_BREAK = /(?<=[.!?…。！？]["'”’)\]]{0,8})\s+|\n\s*/g;

/**
 * SENTENCE_BREAK as the checks see a text: normalisation folds every run of whitespace, newlines
 * included, into one space (src/text/normalize.ts), so there only punctuation ends a sentence.
 */
const PUNCTUATION_BREAK = /(?<=[.!?…。！？]["'”’)\]]{0,8})\s+/g;

/** The longest look-behind SENTENCE_BREAK needs: a mark and eight closing quotes. */
const LOOK_BEHIND = 9;

/**
 * Where the sentence that `text` ends in began, when that sentence has not ended: the end of the
 * last break, or 0 for a text with none. The text's length when it ends at a break (or is blank):
 * every sentence in it has ended. "3." without a space after it has not ended: "3.14" may follow.
 */
export function unfinishedSentenceStart(text: string): number {
  let start = 0;
  for (const m of text.matchAll(SENTENCE_BREAK)) start = m.index + m[0].length;
  return /\S/.test(text.slice(start)) ? start : text.length;
}

/**
 * The last place in `text` after `from` and at or before `to` where a sentence has ended and the
 * next one begins (the end of a break), or undefined: where a check of the text, normalised, sees
 * one, so a line break alone is not one. Reads only `from..to` and the few characters the break's
 * look-behind needs, so it costs the same on a long response as on a short one.
 */
export function lastSentenceStart(text: string, from: number, to: number): number | undefined {
  const offset = Math.max(0, from - LOOK_BEHIND);
  let found: number | undefined;
  for (const m of text.slice(offset, to).matchAll(PUNCTUATION_BREAK)) {
    const start = offset + m.index + m[0].length;
    if (start > from) found = start;
  }
  return found;
}
