import { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { HttpError } from "../errors.js";
import { refuseBody } from "./body-refusal.js";
import { watchChunkSizes } from "./chunk-size-watch.js";
import { answerClientErrors, answerConnect } from "./client-error.js";
import { drainable } from "./drain.js";
import { lingeringResponses } from "./lingering-close.js";
import type { Rejection } from "./metrics.js";
import { answerExpectation, answerUnbuildableRequest, requireHost } from "./request-target.js";
import { type Logger, logRecord } from "./types.js";

/** What one connection may take from the server. Past each, the client gets the answer noted. */
export interface ConnectionLimits {
  /** For the request line and headers, from connecting or a reused connection's first byte (408). */
  readonly headersMs: number;
  /** To send the whole request, headers and body (408). */
  readonly requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveMs: number;
  /** How often the two deadlines above are checked: they fire up to this late. */
  readonly checkEveryMs: number;
  /** Open connections at most; past it new ones are closed unanswered. */
  readonly maxConnections: number;
  /** A connection closed before its request body arrived keeps reading (and discarding) for this long… */
  readonly lingerMs: number;
  /** …or this many bytes, so the client can finish sending and read its answer. */
  readonly lingerBytes: number;
  /**
   * A chunked body whose chunk sizes announce more than this is refused (413) as soon as they
   * arrive, not when the bytes fail to; unset, chunk sizes are not watched (no body is read).
   */
  readonly bodyBytes?: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  // Node's defaults (60 s for headers, 300 s per request) let slow clients hold sockets for minutes.
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  // Node's default is 30 s: a 10 s header deadline then fired after up to 40 s.
  checkEveryMs: 1_000,
  maxConnections: 1_024,
  lingerMs: 5_000,
  lingerBytes: 16 * 1024 * 1024,
};

/** Logs refused connections once, then at most once a minute with a count, whatever the flood. */
function dropLogger(log: Logger, max: number) {
  let last = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  return () => {
    dropped++;
    if (performance.now() - last < 60_000) return;
    last = performance.now();
    log(
      logRecord("warn", "connection limit reached; refusing new connections", {
        max_connections: max,
        dropped,
      }),
    );
    dropped = 0;
  };
}

/** What the server runs for each request: a hono app's `fetch`. */
export type FetchApp = { readonly fetch: Parameters<typeof getRequestListener>[0] };

/**
 * The Node server in front of an app: deadlines, the connection cap, JSON for Node's own errors.
 * `onLimit` hears of every connection or request a limit refused before the app saw it.
 */
export function createHttpServer(
  app: FetchApp,
  hostname: string,
  limits: ConnectionLimits,
  log: Logger,
  onLimit: (limit: Rejection) => void = () => {},
) {
  const linger = { ms: limits.lingerMs, bytes: limits.lingerBytes };
  const server = new Server({
    ServerResponse: lingeringResponses(linger),
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkEveryMs,
    // Node's own refusal is a bare 400; requireHost() gives it as JSON.
    requireHostHeader: false,
  });
  server.keepAliveTimeout = limits.keepAliveMs;
  server.maxConnections = limits.maxConnections;
  // Before the app's listener, so a drain can still mark a response `Connection: close`.
  const { drain, inFlight } = drainable(server);
  const listener = getRequestListener(app.fetch, { hostname, errorHandler: answerUnbuildableRequest(log) });
  server.on("request", requireHost(listener, log));
  server.on("clientError", answerClientErrors(log, linger, inFlight, onLimit));
  server.on("connect", answerConnect(log, linger));
  server.on("checkExpectation", answerExpectation(log));
  const { bodyBytes } = limits;
  if (bodyBytes !== undefined) {
    const tooLarge = () => new HttpError(413, `Request body exceeds ${bodyBytes} bytes`);
    watchChunkSizes(
      server,
      bodyBytes,
      (socket) => inFlight(socket)?.req,
      (request) => refuseBody(request, tooLarge()),
    );
  }
  const logDrop = dropLogger(log, limits.maxConnections);
  server.on("drop", () => {
    onLimit("connection_limit");
    logDrop();
  });
  return { server, drain };
}

/** Resolves once `server` listens, with the port it got (0 picks one) and a URL to reach it. */
export function listen(server: Server, hostname: string, port: number) {
  return new Promise<{ port: number; url: string }>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      const { port: got } = server.address() as AddressInfo;
      const shownHost = hostname.includes(":") ? `[${hostname}]` : hostname;
      resolve({ port: got, url: `http://${shownHost}:${got}` });
    });
  });
}
