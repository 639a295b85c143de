import type { CheckRequest, Finding } from "../guardrails/types.js";
import type { ActiveGuardrail } from "./compile.js";

/** One guardrail's answer for one text: its finding, or the error it threw; timed either way. */
export type RunResult =
  | { readonly finding: Finding; readonly ms: number }
  | { readonly error: Error; readonly ms: number };

/**
 * Runs one guardrail and times it from its call until its finding is ready. A detector that
 * answers at once is timed to its return: awaiting it would add the work of every guardrail
 * started after it. One that returns a promise is timed to its settling, waits included.
 */
export async function runOne(
  guardrail: ActiveGuardrail,
  request: CheckRequest,
  now: () => number,
): Promise<RunResult> {
  const started = now();
  try {
    const answer = guardrail.detector.check(request);
    if (!(answer instanceof Promise)) return { finding: answer, ms: now() - started };
    const finding = await answer;
    return { finding, ms: now() - started };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)), ms: now() - started };
  }
}
