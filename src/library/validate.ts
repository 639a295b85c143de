import { InputError } from "../errors.js";
import { overLimit } from "../text/length.js";

/**
 * The server's checks on a request's text fields (src/server/body.ts), with its messages and
 * statuses, for callers in process: `message` must be a string, other fields a string or absent
 * (null counts as absent), and none longer than `maxChars` code points as sent or after NFKC.
 */
export function requireText(field: string, value: unknown, maxChars: number): string;
export function requireText(
  field: string,
  value: unknown,
  maxChars: number,
  optional: true,
): string | undefined;
export function requireText(field: string, value: unknown, maxChars: number, optional = false) {
  if (optional && (value === undefined || value === null)) return undefined;
  if (typeof value !== "string") {
    throw new InputError(
      400,
      optional ? `${field} must be a string` : `${field} is required and must be a string`,
    );
  }
  const over = overLimit(value, maxChars);
  if (over === "sent") throw new InputError(413, `${field} exceeds ${maxChars} characters`);
  if (over === "normalized") {
    throw new InputError(413, `${field} exceeds ${maxChars} characters after Unicode normalization (NFKC)`);
  }
  return value;
}
