import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { RequestError } from "@hono/node-server";
import { type Logger, logRecord } from "./types.js";

/**
 * The codes logged for requests Node parsed but hono could not turn into a URL. hono's messages
 * are fixed strings today; mapping them keeps anything a client sent out of the log even if a
 * later version quotes the target.
 */
const CODES: Readonly<Record<string, string>> = {
  "Invalid URL": "invalid_target",
  "Invalid absolute URL": "invalid_target",
  "Backslash in request path": "invalid_target",
  "Invalid host header": "invalid_host",
  "Missing host header": "missing_host",
};

const MALFORMED = JSON.stringify({ error: "Malformed HTTP request" });

function logged(log: Logger, code: string, status = 400) {
  const requestId = randomUUID();
  log(logRecord("info", "client error", { request_id: requestId, status, code }));
  return requestId;
}

/** A JSON error written on Node's response, closing the connection: no handler has the request. */
function refuse(response: ServerResponse, status: number, body: string, requestId: string) {
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-ID": requestId,
    Connection: "close",
  });
  response.end(body);
}

/**
 * hono's `errorHandler` for requests it could not build (an asterisk-form target such as
 * `POST * HTTP/1.1`, a Host header that is no host): its default answer is a bare 400 with no
 * body, where every error here is `{"error": …}`. Anything else reaching it is a fault: a 500.
 */
export function answerUnbuildableRequest(log: Logger) {
  return (error: unknown): Response => {
    if (!(error instanceof RequestError)) {
      const requestId = randomUUID();
      const name = error instanceof Error ? error.name : typeof error;
      log(logRecord("error", "request listener failed", { request_id: requestId, status: 500, error: name }));
      return Response.json(
        { error: "Internal server error" },
        { status: 500, headers: { "X-Request-ID": requestId } },
      );
    }
    const requestId = logged(log, CODES[error.message] ?? "invalid_request");
    return new Response(MALFORMED, {
      status: 400,
      headers: { "Content-Type": "application/json", "X-Request-ID": requestId, Connection: "close" },
    });
  };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node answers its absence with a bare 400 unless
 * `requireHostHeader` is off; with it off, this wrapper gives the same refusal as JSON.
 */
export function requireHost(listener: Listener, log: Logger): Listener {
  return (request, response) => {
    if (request.httpVersion !== "1.1" || request.headers.host !== undefined) {
      listener(request, response);
      return;
    }
    refuse(response, 400, MALFORMED, logged(log, "missing_host"));
  };
}

const EXPECTATION = JSON.stringify({ error: "Expectation not supported" });

/**
 * A `checkExpectation` listener: an `Expect` other than 100-continue (RFC 9110 §10.1.1). Node's
 * own answer is a bare 417.
 */
export function answerExpectation(log: Logger) {
  return (_request: IncomingMessage, response: ServerResponse) =>
    refuse(response, 417, EXPECTATION, logged(log, "unsupported_expectation", 417));
}
