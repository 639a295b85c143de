import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { CheckMode, Finding, GuardrailId, Span } from "../guardrails/types.js";
import type { ActiveGuardrail, CompiledProfile } from "./compile.js";
import type { CheckOutcome, CheckResponse, GuardrailFailure } from "./engine.js";
import type { RunResult } from "./run-one.js";

/** Each applicable guardrail's finding, a failed one's by the profile's `on_error`. */
export interface Verdicts {
  readonly findings: Map<GuardrailId, Finding>;
  readonly failures: GuardrailFailure[];
  readonly timings: Partial<Record<GuardrailId, number>>;
}

export function verdicts(
  applicable: readonly ActiveGuardrail[],
  results: readonly (RunResult | undefined)[],
  onError: CompiledProfile["profile"]["onError"],
): Verdicts {
  const findings = new Map<GuardrailId, Finding>();
  const failures: GuardrailFailure[] = [];
  const timings: Partial<Record<GuardrailId, number>> = {};
  applicable.forEach((guardrail, i) => {
    const result = results[i];
    if (result) timings[guardrail.id] = result.ms;
    if (result && "finding" in result) findings.set(guardrail.id, result.finding);
    else {
      failures.push({ guardrail: guardrail.id, error: result?.error ?? new Error("no result") });
      // A failed detector is never silently "clean": the profile decides, and blocks by default.
      findings.set(guardrail.id, { flagged: onError === "block" });
    }
  });
  return { findings, failures, timings };
}

/** The spec's body, in the endpoint's `checks` order, and what views and logs read beside it. */
export function outcome(
  registry: GuardrailRegistry,
  order: readonly GuardrailId[],
  { findings, failures, timings }: Verdicts,
  seconds: number,
): CheckOutcome {
  const checks: CheckResponse["checks"] = {};
  for (const id of order) checks[id] = registry[id].render(findings.get(id));
  const spans: Partial<Record<GuardrailId, readonly Span[]>> = {};
  for (const [id, finding] of findings) if (finding.spans?.length) spans[id] = finding.spans;
  const details: NonNullable<CheckOutcome["details"]> = {};
  for (const [id, { threshold, note }] of findings) {
    if (threshold !== undefined || note !== undefined)
      details[id] = {
        ...(threshold === undefined ? {} : { threshold }),
        ...(note === undefined ? {} : { note }),
      };
  }
  return {
    body: {
      injection_detected: [...findings.values()].some((f) => f.flagged),
      execution_time: Math.round(seconds * 1e6) / 1e6,
      checks,
    },
    failures,
    flaggedBy: [...findings].filter(([, f]) => f.flagged).map(([id]) => id),
    timings,
    spans,
    details,
  };
}

export type { CheckMode };
