/**
 * Where the stream guard may cut the response: never between the two halves of a surrogate pair
 * (a lone half is not valid UTF-8 to the server), and, for what is released, not just after the
 * start of something a later chunk could complete (a card number, an e-mail address, a phrase),
 * nor part way through a sentence the sentence encoder has not read whole.
 */
import { lastSentenceStart } from "../text/sentences.js";

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
 * Where the `context` of a chunk starting at `start` begins: at the start of the last sentence
 * that began at least `spanChars` before the chunk, so the context holds the sentence the chunk
 * continues whole (the server reads sentences, see settledWindows in src/engine/embedding.ts) and
 * anything a card number, address or phrase needs to be seen whole. The place moves once per
 * sentence: consecutive checks share their sentence windows and the server's vector cache serves
 * them. With no sentence start within `tailChars` (a run-on line), at most `tailChars` back, at a
 * place that moves in steps of a quarter of that and then to a word start, for the same reason.
 */
export function tailStart(text: string, start: number, tailChars: number, spanChars = 256): number {
  const span = Math.min(spanChars, tailChars);
  if (start <= span) return 0;
  const floor = Math.max(0, start - tailChars);
  const sentence = lastSentenceStart(text, Math.max(0, floor - 1), start - span);
  if (sentence !== undefined) return sentence;
  if (floor === 0) return 0;
  const step = Math.max(1, Math.floor(tailChars / 4));
  let from = Math.min(start, Math.ceil(floor / step) * step);
  const space = text.slice(from, Math.min(start, from + 64)).search(/\s\S/);
  if (space >= 0) from += space + 1;
  return isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1)) ? from + 1 : from;
}

/**
 * How far passed text may be released: to the start of the last sentence that began at least
 * `holdBack` characters before `passed`, so what reaches the user is whole sentences, each judged
 * ended by the sentence encoder (the server embeds only sentences that have ended, see
 * settledWindows in src/engine/embedding.ts). A sentence still unfinished after `sentenceHold`
 * characters is released in word steps (spanHoldEnd): holding a run-on line (code, a table, a list
 * with no full stops) until its end would stall the stream. A later pass, or the final check,
 * releases the rest.
 */
export function releasableEnd(
  text: string,
  released: number,
  passed: number,
  holdBack: number,
  sentenceHold: number,
): number {
  const end = spanHoldEnd(text, released, passed, holdBack);
  if (end <= released || sentenceHold <= 0) return end;
  const sentence = lastSentenceStart(text, Math.max(released, end - sentenceHold), end);
  if (sentence !== undefined) return sentence;
  return end - released >= sentenceHold ? end : released;
}

/**
 * `holdBack` characters short of `passed`, moved back to the start of the word (the run of
 * non-space characters) it falls in, at most `holdBack` further, so a card number, IBAN or e-mail
 * address a later chunk completes is never half out.
 */
export function spanHoldEnd(text: string, released: number, passed: number, holdBack: number): number {
  let end = passed - holdBack;
  if (end <= released) return released;
  const floor = Math.max(released, end - holdBack);
  const atSpace = (i: number) => /\s/.test(text[i - 1] ?? " ");
  while (end > floor && !atSpace(end)) end--;
  // No word start within reach: a long run (a token, a URL) is released up to the hold-back.
  return safeCut(text, atSpace(end) ? end : passed - holdBack);
}
