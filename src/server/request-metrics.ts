import type { MiddlewareHandler } from "hono";
import { HttpError, InputError } from "../errors.js";
import type { Endpoint, Rejection, ServerMetrics } from "./metrics.js";
import type { AppEnv } from "./types.js";

/** Which limit a request's error answer came from, if any: the two 413s a check can get. */
function limitHit(error: Error | undefined): Rejection | undefined {
  // InputError is the library's field check (src/engine/check-fields.ts); HttpError 413 is the body cap.
  if (error instanceof InputError && error.status === 413) return "message_too_long";
  if (error instanceof HttpError && error.status === 413) return "body_too_large";
  return undefined;
}

/**
 * Counts every request the app answers, once it is answered. The endpoint comes from `endpoints`
 * (exact paths; anything else is `other`) and the profile from authentication, so no label ever
 * carries what a caller sent.
 */
export function requestMetrics(
  metrics: ServerMetrics,
  endpoints: ReadonlyMap<string, Endpoint>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const endpoint = endpoints.get(c.req.path) ?? "other";
    const profile = c.get("resolved")?.profile.profile.name;
    metrics.request(endpoint, c.res.status, profile, (performance.now() - started) / 1000);
    const limit = limitHit(c.error);
    if (limit) metrics.rejected(limit);
  };
}
