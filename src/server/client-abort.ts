/**
 * nginx's "client closed request": the status logged for a request whose connection closed before
 * it could be answered. Nobody receives it; it keeps such requests out of the 5xx that alerts
 * watch, since a client that goes away mid-body is not a server failure.
 */
export const CLIENT_CLOSED = 499;

/** Node's errors for a request stream cut short: the client reset or closed the connection. */
const CUT_SHORT = new Set(["ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE"]);

export function isClientAbort(error: unknown): boolean {
  return error instanceof Error && CUT_SHORT.has((error as NodeJS.ErrnoException).code ?? "");
}
