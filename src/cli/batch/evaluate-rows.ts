import type { ActiveGuardrail, CompiledProfile } from "../../engine/compile.js";
import { mergeFindings } from "../../engine/conversation/merge-findings.js";
import type { CheckOutcome, MultiProfileEngine } from "../../engine/engine.js";
import type { EvalRow } from "../../eval/rows.js";
import type { RowGuardrailResult, RowResult, RowVerdict } from "../../eval/summary.js";
import type { CheckMode, Finding, GuardrailId } from "../../guardrails/types.js";

/** The row fields a worker needs: structured-clone friendly and without the label's provenance. */
export type RowTask = Pick<
  EvalRow,
  "row" | "line" | "id" | "text" | "prompt" | "label" | "category" | "messages"
>;

/**
 * The engine's response body is the spec's shape (docs/service-spec.md) and drops scores, so each row runs against a
 * thin copy of the compiled profile whose detectors record their findings on the way out.
 */
function recording(compiled: CompiledProfile, findings: Map<GuardrailId, Finding>): CompiledProfile {
  const wrap = (g: ActiveGuardrail): ActiveGuardrail => ({
    ...g,
    detector: {
      check: async (request) => {
        const finding = await g.detector.check(request);
        // A conversation's texts each meet the detector: the row's finding is theirs merged, as in `checks`.
        const before = findings.get(g.id);
        findings.set(g.id, before ? mergeFindings([before, finding]) : finding);
        return finding;
      },
    },
  });
  return { profile: compiled.profile, active: compiled.active.map(wrap) };
}

const scoreOf = (f: Finding | undefined) =>
  typeof f?.score === "number" && Number.isFinite(f.score) ? f.score : null;

/** A profile's verdict on a row, and each of its guardrails', from the engine's outcome and findings. */
function verdictOf(
  compiled: CompiledProfile,
  mode: CheckMode,
  outcome: CheckOutcome,
  findings: ReadonlyMap<GuardrailId, Finding>,
): RowVerdict {
  const guardrails: RowResult["guardrails"] = {};
  for (const g of compiled.active) {
    if (!g.appliesTo(mode)) continue;
    const failure = outcome.failures.find((f) => f.guardrail === g.id);
    const finding = findings.get(g.id);
    const result: RowGuardrailResult = {
      // A failed guardrail's verdict is the profile's on_error policy, as the engine applied it.
      flagged: finding ? finding.flagged : failure !== undefined && compiled.profile.onError === "block",
      score: scoreOf(finding),
      matched: [...(finding?.matched ?? [])],
      entities: [...(finding?.entities ?? [])],
      category: finding?.category ?? null,
      threshold: typeof finding?.threshold === "number" ? finding.threshold : null,
      error: failure ? failure.error.message : null,
    };
    guardrails[g.id] = result;
  }
  return { flagged: outcome.body.injection_detected, guardrails };
}

/**
 * Evaluates rows with `compiled`, and with `compared` too when given (`--compare`): both judge each
 * row in one engine call, which normalises and embeds its text once (see checkEach).
 */
export function createRowEvaluator(
  engine: MultiProfileEngine,
  compiled: CompiledProfile,
  mode: CheckMode,
  compared?: CompiledProfile,
) {
  const profiles = compared ? [compiled, compared] : [compiled];
  const one = async (row: RowTask): Promise<RowResult> => {
    const findings = profiles.map(() => new Map<GuardrailId, Finding>());
    const started = performance.now();
    const recorded = profiles.map((p, i) => recording(p, findings[i] as Map<GuardrailId, Finding>));
    const { messages } = row;
    const outcomes = messages
      ? await Promise.all(recorded.map((p) => engine.checkMessages(messages, p)))
      : await engine.checkEach(mode, row.text, recorded, row.prompt);
    const latency = performance.now() - started;
    const [first, second] = outcomes.map((outcome, i) =>
      verdictOf(profiles[i] as CompiledProfile, mode, outcome, findings[i] as Map<GuardrailId, Finding>),
    );
    const own = first as RowVerdict;
    return {
      row: row.row,
      line: row.line,
      id: row.id,
      label: row.label,
      category: row.category,
      flagged: own.flagged,
      latency_ms: Math.round(latency * 1000) / 1000,
      engine_ms: 0,
      guardrails: own.guardrails,
      ...(second ? { compared: second } : {}),
    };
  };
  // Rows of a batch run together so the encoder can embed their windows in one call. Each row's
  // own wall time then spans the batch's; what a row costs is its share of the batch's time.
  return async (rows: readonly RowTask[]) => {
    const started = performance.now();
    const results = await Promise.all(rows.map(one));
    const share = Math.round(((performance.now() - started) / Math.max(1, rows.length)) * 1000) / 1000;
    for (const result of results) result.engine_ms = share;
    return results;
  };
}
