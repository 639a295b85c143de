import { randomUUID } from "node:crypto";
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { type LingerBounds, lingeringClose } from "./lingering-close.js";
import type { Rejection } from "./metrics.js";
import { type Logger, logRecord } from "./types.js";

/** What Node's parser and timers reject before any handler runs, answered like every other error. */
function answerFor(code: string | undefined): [status: number, error: string, limit?: Rejection] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request headers too large", "headers_too_large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Chunk extensions too large", "chunk_extensions_too_large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request timeout", "timeout"];
    default:
      return [400, "Malformed HTTP request"];
  }
}

/** The bytes of a whole `{"error": …}` answer that closes the connection. */
export function rawErrorResponse(
  status: number,
  error: string,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): string {
  const body = JSON.stringify({ error });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
    "Content-Type: application/json\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-ID: ${requestId}\r\n` +
    extra.join("") +
    "Connection: close\r\n\r\n" +
    body
  );
}

/**
 * A `clientError` listener. Node's own answers are bare 400/408/431 lines; these are JSON, carry
 * an X-Request-ID and are logged (status and the parser's error code, never the bytes received:
 * `rawPacket` is request content). `inFlight` tells whether an answer has already begun on the
 * socket, in which case nothing more can be said and the connection is only cut. `onLimit` hears
 * of each answer that a limit (size, deadline) caused.
 */
export function answerClientErrors(
  log: Logger,
  linger: LingerBounds,
  inFlight: (socket: Socket) => ServerResponse | undefined,
  onLimit: (limit: Rejection) => void = () => {},
) {
  // A broken parser reports again on every later read: one answer per connection.
  const answered = new WeakSet<Socket>();
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const gone = error.code === "ECONNRESET" || error.code === "EPIPE" || !socket.writable;
    if (gone || inFlight(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message, limit] = answerFor(error.code);
    if (limit) onLimit(limit);
    const requestId = randomUUID();
    socket.write(rawErrorResponse(status, message, requestId));
    lingeringClose(socket, undefined, linger);
    log(logRecord("info", "client error", { request_id: requestId, status, code: error.code ?? null }));
  };
}

/** Every method some path here answers: what a 405 to a method no path answers lists. */
export const SERVED_METHODS = "GET, HEAD, POST";

/**
 * A `connect` listener. Node hands a CONNECT request's socket over raw and, with no listener,
 * drops it unanswered; this server is no proxy, so it says so like any other refused method.
 */
export function answerConnect(log: Logger, linger: LingerBounds) {
  return (_request: unknown, socket: Socket) => {
    const requestId = randomUUID();
    socket.write(rawErrorResponse(405, "Method not allowed", requestId, { Allow: SERVED_METHODS }));
    // The parser has let go of the socket: read (and drop) what follows so the close can linger.
    socket.resume();
    lingeringClose(socket, undefined, linger);
    log(logRecord("info", "client error", { request_id: requestId, status: 405, code: "connect_method" }));
  };
}
