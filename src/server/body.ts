import {
  checkInputFields,
  checkOutputFields,
  type InputFields,
  type OutputFields,
} from "../engine/check-message-fields.js";
import { HttpError } from "../errors.js";
import type { CheckMode } from "../guardrails/types.js";
import type { Limits } from "./types.js";

/**
 * A check's fields: input-check's `message` or `messages`; output-check's `message` with its
 * `prompt`, `context` (the text of the same response before it, streamed) and the system prompt
 * its `messages` give.
 */
export type CheckRequestBody = InputFields | OutputFields;

/** application/json with any parameters. RFC 8259 defines no charset: the body is read as UTF-8. */
const JSON_TYPE = /^application\/json[\t ]*(;|$)/i;

export function requireJsonContentType(header: string | undefined): void {
  if (header === undefined || !JSON_TYPE.test(header)) {
    throw new HttpError(415, "Content-Type must be application/json");
  }
}

/**
 * A request body as the server sees it: the headers that matter and the bytes as they arrive.
 * Under Node the bytes come straight from the socket's message, so no web Request (and its abort
 * signal) is built per request; in-process tests pass a web Request's body stream instead.
 */
export interface IncomingBody {
  readonly contentType: string | undefined;
  readonly contentLength: string | undefined;
  readonly chunks: AsyncIterable<Uint8Array> | null;
}

/** Reads at most `maxBytes`, counting what actually arrives: a lying or absent Content-Length cannot get more through. */
export async function readLimitedBody(body: IncomingBody, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new HttpError(413, `Request body exceeds ${maxBytes} bytes`);
  if (Number(body.contentLength ?? 0) > maxBytes) throw tooLarge();
  if (!body.chunks) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body.chunks) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    // Invalid UTF-8 lands here too: the body is not the JSON text it claims to be.
    throw new HttpError(400, "Malformed JSON body");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * Validates the fields the endpoint reads; others are ignored so clients may send more.
 * `prompt` and `context` count only on output-check (src/engine/check-message-fields.ts has the rules).
 */
export function parseCheckBody(
  raw: Record<string, unknown>,
  mode: CheckMode,
  limits: Limits,
): CheckRequestBody {
  if (mode === "input")
    return checkInputFields({ message: raw.message, messages: raw.messages }, limits.messageChars);
  const { message, prompt, context, messages } = raw;
  return checkOutputFields({ message, prompt, context, messages }, limits.messageChars);
}

export async function readCheckBody(
  body: IncomingBody,
  mode: CheckMode,
  limits: Limits,
): Promise<CheckRequestBody> {
  requireJsonContentType(body.contentType);
  return parseCheckBody(parseJsonObject(await readLimitedBody(body, limits.bodyBytes)), mode, limits);
}
