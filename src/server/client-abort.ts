import type { ServerResponse } from "node:http";

/**
 * nginx's "client closed request": the status logged for a request whose connection closed before
 * it could be answered. Nobody receives it; it keeps such requests out of the 5xx that alerts
 * watch, since a client that goes away mid-body is not a server failure.
 */
export const CLIENT_CLOSED = 499;

/** Ours, for a check finished after its client had gone (see clientGoneSignal). */
const CLIENT_GONE = "ERR_CLIENT_GONE";

/** Node's errors for a request stream cut short (the client reset or closed the connection), and ours. */
const CUT_SHORT = new Set(["ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE", CLIENT_GONE]);

export function isClientAbort(error: unknown): boolean {
  return error instanceof Error && CUT_SHORT.has((error as NodeJS.ErrnoException).code ?? "");
}

/** Thrown for a check whose client went away while it ran: logged 499, never written. */
export function clientGoneError(): Error {
  return Object.assign(new Error("client closed the connection"), { code: CLIENT_GONE });
}

/**
 * Aborted when the client disconnects before its answer is written, so the engine drops the
 * encoder work still queued for it: a client that gives up must not leave seconds of CPU behind.
 * Under Node that is the response closing unfinished; in-process, the web Request's own signal.
 */
export function clientGoneSignal(outgoing: ServerResponse | undefined, request: Request): AbortSignal {
  if (!outgoing) return request.signal;
  const controller = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) controller.abort(clientGoneError());
  });
  return controller.signal;
}
