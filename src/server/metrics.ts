import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { CheckOutcome } from "../engine/engine.js";
import type { CheckMode } from "../guardrails/types.js";
import { type MetricSources, registerStateGauges } from "./state-gauges.js";

/** The routes requests are counted under: every other path is `other`, so a scan adds no series. */
export type Endpoint = `${CheckMode}-check` | "healthz" | "chat-completions" | "models" | "other";

/** The limits a request can run into (see README, "Decisions where the spec is silent"). */
export type Rejection =
  | "body_too_large"
  | "message_too_long"
  | "headers_too_large"
  | "chunk_extensions_too_large"
  | "timeout"
  | "connection_limit";

/** The profile label of a request that never authenticated: not a valid profile name, so never one. */
export const NO_PROFILE = "(none)";

// From a one-sentence check (~1 ms) to a 100,000-character one under load (seconds).
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's metrics, in a registry of its own: two servers in one process (tests, embedders)
 * never share a series. Labels take only values from a fixed set or from the config (profile
 * names), never from a request: no App ID, key, path or header reaches a label.
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "guardrail_http_requests_total",
    help: "Requests answered, by endpoint, status class and the profile that answered",
    labelNames: ["endpoint", "status_class", "profile"] as const,
    registers,
  });
  const latency = new Histogram({
    name: "guardrail_http_request_duration_seconds",
    help: "Time from a request's arrival at the app to its answer",
    labelNames: ["endpoint"] as const,
    buckets: SECONDS,
    registers,
  });
  const rejected = new Counter({
    name: "guardrail_rejected_requests_total",
    help: "Requests and connections refused by a limit, by the limit",
    labelNames: ["reason"] as const,
    registers,
  });
  const detectorTime = new Histogram({
    name: "guardrail_detector_duration_seconds",
    help: "Time from each guardrail's call until its finding was ready, encoder waits included",
    labelNames: ["guardrail", "mode"] as const,
    buckets: SECONDS,
    registers,
  });
  const flags = new Counter({
    name: "guardrail_detector_flags_total",
    help: "Checks a guardrail flagged (a failed guardrail whose profile blocks on error counts too)",
    labelNames: ["guardrail", "mode", "profile"] as const,
    registers,
  });
  const errors = new Counter({
    name: "guardrail_detector_errors_total",
    help: "Checks in which a guardrail failed; the profile's on_error decided its verdict",
    labelNames: ["guardrail", "mode"] as const,
    registers,
  });
  const reloads = new Counter({
    name: "guardrail_config_reloads_total",
    help: "Config reloads, by result; a failed one keeps the previous config serving",
    labelNames: ["result"] as const,
    registers,
  });
  for (const result of ["ok", "failed"]) reloads.inc({ result }, 0);

  registerStateGauges(registers, sources);

  return {
    registry,
    request(endpoint: Endpoint, status: number, profile: string | undefined, seconds: number) {
      const statusClass = `${Math.floor(status / 100)}xx`;
      requests.inc({ endpoint, status_class: statusClass, profile: profile ?? NO_PROFILE });
      latency.observe({ endpoint }, seconds);
    },
    checked(mode: CheckMode, profile: string, outcome: CheckOutcome) {
      for (const [guardrail, ms] of Object.entries(outcome.timings))
        detectorTime.observe({ guardrail, mode }, ms / 1000);
      for (const guardrail of outcome.flaggedBy) flags.inc({ guardrail, mode, profile });
      for (const { guardrail } of outcome.failures) errors.inc({ guardrail, mode });
    },
    rejected: (reason: Rejection) => rejected.inc({ reason }),
    reloaded: (ok: boolean) => reloads.inc({ result: ok ? "ok" : "failed" }),
  };
}

export type ServerMetrics = ReturnType<typeof createMetrics>;
