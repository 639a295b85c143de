/**
 * Where the stream guard may cut the response: never between the two halves of a surrogate pair
 * (a lone half is not valid UTF-8 to the server), and, for what is released, not just after the
 * start of something a later chunk could complete (a card number, an e-mail address, a phrase).
 */

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The largest cut at or before `index` that splits no surrogate pair. */
export function safeCut(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  return isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index)) ? index - 1 : index;
}

/** How much of the text read so far can be checked: all of it, but a trailing high surrogate waits for its pair. */
export function checkableEnd(text: string, done: boolean): number {
  return !done && text.length > 0 && isHigh(text.charCodeAt(text.length - 1)) ? text.length - 1 : text.length;
}

/**
 * Where the `context` of a chunk starting at `start` begins: at most `tailChars` back, at a place
 * that moves in steps of a quarter of `tailChars` and then to the next word start, on a whole
 * character. A tail that slid with every chunk would start every check's context at a new place:
 * each would cut the text into new sentence windows and re-embed all of them. Fixed for a quarter
 * of the tail, consecutive checks hold the same windows and the server's vector cache serves them.
 */
export function tailStart(text: string, start: number, tailChars: number): number {
  if (start - tailChars <= 0) return 0;
  const step = Math.max(1, Math.floor(tailChars / 4));
  let from = Math.min(start, Math.ceil((start - tailChars) / step) * step);
  const space = text.slice(from, Math.min(start, from + 64)).search(/\s\S/);
  if (space >= 0) from += space + 1;
  return isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1)) ? from + 1 : from;
}

/**
 * How far passed text may be released: `holdBack` characters short of `passed`, moved back to the
 * start of the word (the run of non-space characters) it falls in, at most `holdBack` further, so
 * a card number, IBAN or e-mail address a later chunk completes is never half out. A later pass,
 * or the final check, releases the rest.
 */
export function releasableEnd(text: string, released: number, passed: number, holdBack: number): number {
  let end = passed - holdBack;
  if (end <= released) return released;
  const floor = Math.max(released, end - holdBack);
  const atSpace = (i: number) => /\s/.test(text[i - 1] ?? " ");
  while (end > floor && !atSpace(end)) end--;
  // No word start within reach: a long run (a token, a URL) is released up to the hold-back.
  return safeCut(text, atSpace(end) ? end : passed - holdBack);
}
