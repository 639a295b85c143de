import { Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { GuardrailApp } from "./app.js";
import { answerClientErrors } from "./client-error.js";
import { drainable } from "./drain.js";
import { lingeringResponses } from "./lingering-close.js";
import type { Logger } from "./types.js";

/** What one connection may take from the server. Past each, the client gets the answer noted. */
export interface ConnectionLimits {
  /** To send the request line and headers, from connecting or from the previous answer (408). */
  readonly headersMs: number;
  /** To send the whole request, headers and body (408). */
  readonly requestMs: number;
  /** A connection closed before its request body arrived keeps reading (and discarding) for this long… */
  readonly lingerMs: number;
  /** …or this many bytes, so the client can finish sending and read its answer. */
  readonly lingerBytes: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  // Node's defaults (60 s for headers, 300 s per request) let slow clients hold sockets for minutes.
  headersMs: 10_000,
  requestMs: 30_000,
  lingerMs: 5_000,
  lingerBytes: 16 * 1024 * 1024,
};

/** The Node server in front of the app: deadlines and JSON for Node's own errors. */
export function createHttpServer(app: GuardrailApp, hostname: string, limits: ConnectionLimits, log: Logger) {
  const linger = { ms: limits.lingerMs, bytes: limits.lingerBytes };
  const server = new Server({
    ServerResponse: lingeringResponses(linger),
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
  });
  // Before the app's listener, so a drain can still mark a response `Connection: close`.
  const { drain, inFlight } = drainable(server);
  server.on("request", getRequestListener(app.fetch, { hostname }));
  server.on("clientError", answerClientErrors(log, linger, inFlight));
  return { server, drain };
}
