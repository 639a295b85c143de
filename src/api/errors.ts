/**
 * The errors the client and the stream guard throw, in one file with no imports beyond types, so
 * `guardrail/client` stays light. A verdict is data (`injection_detected`); only a blocked stream,
 * an HTTP error answer or a server that cannot be reached is an exception.
 */
import type { OutputCheckResponse } from "./types.js";

/** The stream guard stopped a stream: a check flagged it. Nothing after `released` was yielded. */
export class GuardrailBlockedError extends Error {
  override readonly name = "GuardrailBlockedError";
  /** The output-check body that flagged. */
  readonly response: OutputCheckResponse;
  /** All the text yielded downstream before the flag. */
  readonly released: string;
  /** True when the final check of the whole response flagged, not a chunk's check. */
  readonly final: boolean;
  constructor(response: OutputCheckResponse, released: string, final: boolean) {
    const flagged = Object.entries(response.checks)
      .filter(([, check]) => flaggedCheck(check))
      .map(([id]) => id);
    super(`stream blocked by output-check${flagged.length > 0 ? ` (${flagged.join(", ")})` : ""}`);
    this.response = response;
    this.released = released;
    this.final = final;
  }
}

function flaggedCheck(check: object): boolean {
  return ("detected" in check && check.detected === true) || ("unsafe" in check && check.unsafe === true);
}

/** The server answered with an error status; `message` is the body's `error`. */
export class GuardrailHttpError extends Error {
  override readonly name = "GuardrailHttpError";
  readonly status: number;
  /** The parsed JSON body (`{ error }` from this server), or the raw text when it was not JSON. */
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * The server could not be reached or did not answer in time, on every attempt. `cause` is the last
 * attempt's error; `timedOut` says whether that was the client's timeout.
 */
export class GuardrailConnectionError extends Error {
  override readonly name = "GuardrailConnectionError";
  readonly attempts: number;
  readonly timedOut: boolean;
  constructor(message: string, options: { cause: unknown; attempts: number; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.attempts = options.attempts;
    this.timedOut = options.timedOut;
  }
}
