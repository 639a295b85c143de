import type { MiddlewareHandler } from "hono";
import { type Logger, logRecord } from "../types.js";

const describe = (error: Error) => `${error.name}: ${error.message}`.slice(0, 300);

/**
 * One line per request: method, path, status and time. Never the query string (the login
 * token travels there), a cookie (the session id), a header or a form field (keys, texts).
 */
export function requestLog(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const unexpected = c.get("unexpected" as never) as Error | undefined;
    log(
      logRecord(status >= 500 ? "error" : "info", "dashboard request", {
        method: c.req.method,
        path: c.req.path.slice(0, 256),
        status,
        latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
        ...(unexpected ? { error: describe(unexpected) } : {}),
      }),
    );
  };
}
