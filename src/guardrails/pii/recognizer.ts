import type { Span } from "../types.js";
import type { PiiEntity } from "./entities.js";

/** A finding before overlaps are resolved; `label` is always a supported entity. */
export interface PiiSpan extends Span {
  readonly label: PiiEntity;
}

/**
 * One recogniser (or a small family sharing a pre-filter). `find` appends to `out` rather than
 * returning arrays so one pass over a message allocates little.
 */
export interface Recognizer {
  readonly entities: readonly PiiEntity[];
  find(text: string, out: PiiSpan[]): void;
}

/**
 * True when one of the context words occurs within `window` characters before the match (or just
 * after it). Context is how a bare 9-digit number becomes an SSN and not an order number.
 */
export function hasContext(text: string, start: number, end: number, words: RegExp, window = 48): boolean {
  const before = text.slice(Math.max(0, start - window), start);
  const after = text.slice(end, end + 24);
  return words.test(before) || words.test(after);
}

/** A token boundary that also rejects being glued to letters, digits or `_` on either side. */
export function isIsolated(text: string, start: number, end: number): boolean {
  const prev = text.charCodeAt(start - 1);
  const next = text.charCodeAt(end);
  return !isWordCode(prev) && !isWordCode(next);
}

function isWordCode(code: number): boolean {
  if (Number.isNaN(code)) return false;
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code > 127
  );
}
