import type { StreamMode } from "../../stream/guard-stream.js";
import { isLoopback } from "../dashboard/guard.js";
import { type RunningServer, type StartOptions, startServer } from "../start.js";
import { createProxyApp } from "./app.js";
import { createProxyMetrics } from "./metrics.js";
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamSettings } from "./upstream.js";

export interface ProxyOptions extends Omit<StartOptions, "app" | "keysRequired"> {
  /** The upstream's base URL including its version path (`https://api.openai.com/v1`). */
  readonly upstream: string;
  /** See UpstreamSettings.timeoutMs (default 300 s). */
  readonly upstreamTimeoutMs?: number;
  /** How streamed answers are checked (docs/streaming.md#modes; default `sentence`). */
  readonly streamMode?: StreamMode;
  /** A fetch to call the upstream with (tests). */
  readonly fetch?: typeof fetch;
}

/**
 * The composition root of `guardrail proxy`: `serve`'s (config, reload, limits, metrics, shutdown)
 * with the proxy's app. Beyond loopback every request needs the org API key, as `serve` asks.
 */
export function startProxy(options: ProxyOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const requireKey = !isLoopback(host);
  const upstream: UpstreamSettings = {
    base: options.upstream.replace(/\/+$/, ""),
    timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return startServer({
    ...options,
    host,
    keysRequired: requireKey,
    app: (parts) =>
      createProxyApp({
        ...parts,
        upstream,
        requireKey,
        ...(options.streamMode ? { streamMode: options.streamMode } : {}),
        ...(parts.metrics ? { proxyMetrics: createProxyMetrics(parts.metrics.registry) } : {}),
      }),
  });
}
