import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { maskAppId } from "../config/apps.js";
import { traceIdOf } from "./traceparent.js";
import { type AppEnv, type Logger, logRecord } from "./types.js";

/** Echoed only when it cannot smuggle anything into logs or headers: short, plain characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const describe = (error: Error) => `${error.name}: ${error.message}`.slice(0, 300);

/**
 * One line per request, written after the response is built. It names the app (masked, as the
 * dashboard shows it) but never the message, the prompt, the query string or any header value
 * other than the request id and a valid traceparent's trace id (both checked against a strict
 * pattern first), so logs can be shipped anywhere.
 */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    // Read before the handler runs, as the request id is: what was sent, whatever happens next.
    const traceId = traceIdOf(c.req.header("traceparent"));
    await next();
    c.header("X-Request-ID", requestId);

    const resolved = c.get("resolved");
    const failures = c.get("guardrailFailures") ?? [];
    const unexpected = c.get("unexpected");
    const status = c.res.status;
    log(
      logRecord(status >= 500 ? "error" : failures.length > 0 ? "warn" : "info", "request", {
        request_id: requestId,
        ...(traceId ? { trace_id: traceId } : {}),
        method: c.req.method,
        path: c.req.path.slice(0, 256),
        status,
        latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
        app: resolved ? (resolved.appId === undefined ? "default" : maskAppId(resolved.appId)) : null,
        ...(resolved ? { profile: resolved.profile.profile.name } : {}),
        ...(failures.length > 0
          ? { guardrail_errors: failures.map((f) => ({ guardrail: f.guardrail, error: describe(f.error) })) }
          : {}),
        ...c.get("logFields"),
        ...(unexpected ? { error: describe(unexpected) } : {}),
      }),
    );
  };
}
