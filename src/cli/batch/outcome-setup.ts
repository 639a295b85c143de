import { resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { type Baseline, loadBaseline } from "../../eval/baseline.js";
import { type Gate, parseGates } from "../../eval/gates.js";
import type { Target } from "../../eval/sweep.js";
import { scoredGuardrails } from "../../guardrails/lists.js";
import type { GuardrailRegistry } from "../../guardrails/registry.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { OutcomeOptions } from "../commands/batch-outcome-flags.js";
import { type BatchOutputs, checkOutputs } from "./outputs.js";

/** What the outcome flags ask of a run (or a merge), checked before any work. */
export interface Outcome {
  readonly target: Target | undefined;
  readonly gates: readonly Gate[];
  readonly baseline: Baseline | undefined;
  readonly outputs: BatchOutputs;
  /** `--write-guardrails`: the only guardrails whose thresholds --write-profile writes. */
  readonly writeOnly?: readonly GuardrailId[] | undefined;
}

/** `--write-guardrails` checked against the scored guardrails; the flags that only --write-profile reads. */
function writeGuardrailsOf(options: OutcomeOptions, registry: GuardrailRegistry): GuardrailId[] | undefined {
  if (!options.writeProfile) {
    for (const [set, flag] of [
      [options.writeGuardrails !== undefined, "--write-guardrails"],
      [options.force === true, "--force"],
    ] as const)
      if (set) throw new UsageError(`${flag} only applies with --write-profile`);
    return undefined;
  }
  if (options.writeGuardrails === undefined) return undefined;
  const scored = scoredGuardrails(registry);
  const ids = options.writeGuardrails.split(",").map((s) => s.trim());
  const unknown = ids.filter((id) => !(scored as readonly string[]).includes(id));
  if (unknown.length > 0 || ids.length === 0)
    throw new UsageError(
      `--write-guardrails: ${unknown.map((u) => `"${u}"`).join(", ") || "empty"} is not a guardrail with a threshold; choose from ${scored.join(", ")}`,
    );
  return ids as GuardrailId[];
}

function targetOf(options: OutcomeOptions): Target | undefined {
  const { targetFpr: fpr, targetRecall: recall } = options;
  if (fpr !== undefined && recall !== undefined)
    throw new UsageError("pass --target-fpr or --target-recall, not both");
  if (options.writeProfile && fpr === undefined && recall === undefined) {
    throw new UsageError(
      "--write-profile writes the recommended thresholds: add --target-fpr or --target-recall",
    );
  }
  if (fpr !== undefined) return { metric: "fpr", value: fpr };
  return recall === undefined ? undefined : { metric: "recall", value: recall };
}

/** `--fail-under`'s gates, then `--max-fpr`'s (its value was checked as it came in). */
function gatesOf(options: OutcomeOptions): Gate[] {
  const gates = parseGates(options.failUnder, undefined);
  if (options.maxFpr !== undefined) gates.push({ metric: "fpr", op: "<=", value: options.maxFpr });
  return gates;
}

/** The flags' own checks, then the files to write (none may be `input`), then the baseline. */
export async function setUpOutcome(
  options: OutcomeOptions,
  cwd: string,
  input: string | undefined,
): Promise<Omit<Outcome, "writeOnly">> {
  const target = targetOf(options);
  const gates = gatesOf(options);
  const outputs = await checkOutputs(options, cwd, input);
  const baseline = options.baseline ? await loadBaseline(resolve(cwd, options.baseline)) : undefined;
  return { target, gates, baseline, outputs };
}

export { writeGuardrailsOf };

/** `--junit-rows`: how many misclassified rows the run keeps for the JUnit report. */
export const junitRowsOf = (options: Pick<OutcomeOptions, "junitRows">) =>
  options.junitRows === true ? 1000 : (options.junitRows ?? 0);

/** Gates, baselines and targets judge verdicts against labels: refused without a label column. */
export function requireLabels(outcome: Omit<Outcome, "writeOnly">, labelled: boolean, file: string): void {
  if (!labelled && (outcome.gates.length > 0 || outcome.baseline || outcome.target)) {
    throw new UsageError(
      `${file}: gates, baselines and threshold targets need labels, and no label column was found; pass --label-column NAME`,
    );
  }
}
