/** The longest message, prompt or context + message, in code points, unless configured otherwise. */
export const DEFAULT_MESSAGE_CHARS = 100_000;

/** Unicode code points in `text` (a surrogate pair is one): how a message's length is counted. */
export function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** The most characters NFKC makes of one (U+FDFA becomes 18): shorter texts need no check after it. */
const MAX_NFKC_EXPANSION = 18;

/**
 * Why `text` is over `limit` code points, or undefined when it is not: as received ("sent"), or
 * only after NFKC ("normalized"), the form every guardrail reads: 20,000 × U+FDFA is 360,000
 * characters after NFKC, and the work grows with them. The common case walks nothing.
 */
export function overLimit(text: string, limit: number): "sent" | "normalized" | undefined {
  if (text.length > limit && codePoints(text) > limit) return "sent";
  if (text.length * MAX_NFKC_EXPANSION > limit && codePoints(text.normalize("NFKC")) > limit)
    return "normalized";
  return undefined;
}
