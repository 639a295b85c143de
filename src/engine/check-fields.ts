import { InputError } from "../errors.js";
import { overLimit } from "../text/length.js";

/**
 * The checks on a check's fields, for the server (src/server/body.ts) and the library alike, so
 * both refuse the same texts with the same words and statuses: `message` a string, `prompt` and
 * `context` strings or absent (null counts as absent); `message`, `prompt`, and `context` with
 * `message` as one text, each at most `limit` code points as sent and after NFKC.
 */
export function checkFields(
  fields: { message: unknown; prompt?: unknown; context?: unknown },
  limit: number,
): { message: string; prompt?: string; context?: string } {
  const { message } = fields;
  const prompt = fields.prompt ?? undefined;
  const context = fields.context ?? undefined;
  if (typeof message !== "string") throw new InputError(400, "message is required and must be a string");
  if (prompt !== undefined && typeof prompt !== "string")
    throw new InputError(400, "prompt must be a string");
  if (context !== undefined && typeof context !== "string")
    throw new InputError(400, "context must be a string");
  checkLength("message exceeds", message, limit);
  if (prompt !== undefined) checkLength("prompt exceeds", prompt, limit);
  if (context) checkLength("context and message together exceed", context + message, limit);
  return {
    message,
    ...(prompt === undefined ? {} : { prompt }),
    ...(context === undefined ? {} : { context }),
  };
}

/** A 413 when `text` is over the limit, as sent or after NFKC; `what` names it. */
export function checkLength(what: string, text: string, limit: number): void {
  const over = overLimit(text, limit);
  if (over === "sent") throw new InputError(413, `${what} ${limit} characters`);
  if (over === "normalized") {
    throw new InputError(413, `${what} ${limit} characters after Unicode normalization (NFKC)`);
  }
}
