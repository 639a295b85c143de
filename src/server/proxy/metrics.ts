import { Counter, Histogram, type Registry } from "prom-client";

/** Where an answer was refused: the request before the upstream, a JSON answer, a stream. */
export type BlockStage = "request" | "response" | "stream";

/** How an upstream call went, for its latency histogram. */
export type UpstreamOutcome = "ok" | "error_status" | "unreachable" | "timeout";

// An LLM answers in tenths of a second to minutes.
const SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The proxy's own series, beside the server's in the same registry (src/server/metrics.ts): the
 * requests it answered are `guardrail_http_requests_total{endpoint="chat-completions"}`. Labels
 * come from fixed sets and profile names only.
 */
export function createProxyMetrics(registry: Registry) {
  const registers = [registry];
  const blocked = new Counter({
    name: "guardrail_proxy_blocked_total",
    help: "Requests and answers a guardrail blocked, by where and by the guardrail that flagged",
    labelNames: ["stage", "guardrail", "profile"] as const,
    registers,
  });
  const redacted = new Counter({
    name: "guardrail_proxy_redacted_total",
    help: "Personal data replaced by placeholders before the upstream, by entity type",
    labelNames: ["entity", "profile"] as const,
    registers,
  });
  const upstream = new Histogram({
    name: "guardrail_proxy_upstream_duration_seconds",
    help: "Time from sending a request upstream until its answer's headers (or the failure)",
    labelNames: ["outcome"] as const,
    buckets: SECONDS,
    registers,
  });
  return {
    blocked(stage: BlockStage, guardrails: readonly string[], profile: string) {
      for (const guardrail of guardrails.length > 0 ? guardrails : ["unknown"])
        blocked.inc({ stage, guardrail, profile });
    },
    redacted(counts: Readonly<Record<string, number>>, profile: string) {
      for (const [entity, n] of Object.entries(counts)) redacted.inc({ entity, profile }, n);
    },
    upstream: (outcome: UpstreamOutcome, seconds: number) => upstream.observe({ outcome }, seconds),
  };
}

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>;
