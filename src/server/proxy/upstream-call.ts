import type { Context } from "hono";
import { HttpError } from "../../errors.js";
import type { AppEnv } from "../types.js";
import type { ProxyMetrics } from "./metrics.js";
import { callUpstream, type Deadline, forwardedHeaders, type UpstreamSettings } from "./upstream.js";

/** An upstream answer on its way: its deadline, and `stop` to close the connection. */
export interface UpstreamAnswer {
  readonly response: Response;
  readonly timer: Deadline;
  stop(): void;
}

/**
 * One request to the upstream with the client's headers (its `Authorization` untouched), timed
 * for the metrics. `stop` closes the upstream connection at any time; the client going away does.
 */
export async function upstreamCall(
  deps: { readonly upstream: UpstreamSettings; readonly metrics?: ProxyMetrics },
  c: Context<AppEnv>,
  path: string,
  init: { method: string; body?: Uint8Array | string },
  clientGone: AbortSignal,
): Promise<UpstreamAnswer> {
  const stopper = new AbortController();
  const cancel = AbortSignal.any([clientGone, stopper.signal]);
  const headers = forwardedHeaders(c.req.raw.headers);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const call = await callUpstream(deps.upstream, path, { ...init, headers }, cancel);
    deps.metrics?.upstream(call.response.ok ? "ok" : "error_status", seconds());
    return { ...call, stop: () => stopper.abort() };
  } catch (error) {
    if (error instanceof HttpError)
      deps.metrics?.upstream(error.status === 504 ? "timeout" : "unreachable", seconds());
    throw error;
  }
}
