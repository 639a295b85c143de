import { UsageError } from "../errors.js";
import type { BatchSummary, GateResult } from "./summary.js";

/** A threshold on one metric: `f1 >= 0.9`, `fpr <= 0.02`, `llm.auc >= 0.95`. */
export interface Gate {
  readonly metric: string;
  readonly op: ">=" | "<=";
  readonly value: number;
}

const OVERALL = ["precision", "recall", "f1", "accuracy", "fpr", "fnr"] as const;
const PER_GUARDRAIL = ["auc", "pr_auc", "recall_at_1pct_fpr"] as const;
/** Metrics where lower is better: a floor becomes a ceiling. */
const LOWER_IS_BETTER = new Set(["fpr", "fnr"]);

function checkMetric(metric: string): void {
  const [a, b, extra] = metric.split(".");
  const ok =
    extra === undefined &&
    (b === undefined
      ? (OVERALL as readonly string[]).includes(a ?? "")
      : (PER_GUARDRAIL as readonly string[]).includes(b));
  if (!ok) {
    throw new UsageError(
      `unknown metric "${metric}": use ${OVERALL.join(", ")}, or GUARDRAIL.${PER_GUARDRAIL.join("|")}`,
    );
  }
}

function fraction(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`${flag}: "${text}" is not a number from 0 to 1`);
  }
  return value;
}

/** `--fail-under f1=0.9,recall=0.95` (for fpr/fnr the number is a ceiling) and `--max-fpr 0.02`. */
export function parseGates(failUnder: string | undefined, maxFpr: string | undefined): Gate[] {
  const gates: Gate[] = [];
  for (const part of (failUnder ?? "").split(",").filter((p) => p.trim() !== "")) {
    const [metric, value, extra] = part.split("=").map((s) => s.trim());
    if (!metric || value === undefined || extra !== undefined) {
      throw new UsageError(`--fail-under: "${part}" is not METRIC=VALUE (e.g. f1=0.9,recall=0.95)`);
    }
    checkMetric(metric);
    const last = metric.split(".").pop() ?? metric;
    gates.push({
      metric,
      op: LOWER_IS_BETTER.has(last) ? "<=" : ">=",
      value: fraction("--fail-under", value),
    });
  }
  if (maxFpr !== undefined) gates.push({ metric: "fpr", op: "<=", value: fraction("--max-fpr", maxFpr) });
  return gates;
}

/** Reads `f1` or `llm.auc` from a summary; null when undefined or absent. */
export function metricValue(
  summary: Pick<BatchSummary, "metrics" | "guardrails">,
  metric: string,
): number | null {
  const [a, b] = metric.split(".");
  if (b === undefined) return (summary.metrics as Record<string, number | null> | null)?.[a ?? ""] ?? null;
  const g = (summary.guardrails as Record<string, Record<string, unknown> | undefined>)[a ?? ""];
  const value = g?.[b];
  return typeof value === "number" ? value : null;
}

const fmt = (v: number | null) => (v === null ? "undefined" : String(Math.round(v * 10000) / 10000));

/** A figure withheld for want of rows fails its gate, saying so (` (too few rows: …)`). */
function withheldWhy(summary: Pick<BatchSummary, "guardrails">, metric: string): string {
  const [id, figure] = metric.split(".");
  const guardrail = (summary.guardrails as Record<string, { withheld?: Record<string, string> } | undefined>)[
    id ?? ""
  ];
  const reason = figure === undefined ? undefined : guardrail?.withheld?.[figure];
  return reason === undefined ? "" : ` (${reason})`;
}

export function checkGates(summary: BatchSummary, gates: readonly Gate[]): GateResult[] {
  return gates.map((gate) => {
    const actual = metricValue(summary, gate.metric);
    const passed = actual !== null && (gate.op === ">=" ? actual >= gate.value : actual <= gate.value);
    const name = `${gate.metric}${gate.op}${gate.value}`;
    return {
      name,
      metric: gate.metric,
      passed,
      actual,
      expected: gate.value,
      message: `${gate.metric} is ${fmt(actual)}${withheldWhy(summary, gate.metric)}; the gate requires ${gate.op} ${gate.value}`,
    };
  });
}

/** The metrics a baseline compares: the gated ones, else the headline ones. */
export function baselineMetrics(gates: readonly Gate[]): string[] {
  const named = [...new Set(gates.map((g) => g.metric))];
  return named.length > 0 ? named : ["precision", "recall", "f1", "accuracy", "fpr"];
}

/** Fails a metric that got worse than the baseline by more than `tolerance` (absolute). */
export function compareBaseline(
  summary: BatchSummary,
  baseline: Pick<BatchSummary, "metrics" | "guardrails">,
  metrics: readonly string[],
  tolerance: number,
): GateResult[] {
  return metrics.map((metric) => {
    const before = metricValue(baseline, metric);
    const actual = metricValue(summary, metric);
    const lower = LOWER_IS_BETTER.has(metric.split(".").pop() ?? metric);
    const name = `baseline:${metric}`;
    if (before === null) {
      return { name, metric, passed: true, actual, expected: null, message: `baseline has no ${metric}` };
    }
    const limit = lower ? before + tolerance : before - tolerance;
    const passed = actual !== null && (lower ? actual <= limit + 1e-12 : actual >= limit - 1e-12);
    const change = actual === null ? "is undefined" : `went from ${fmt(before)} to ${fmt(actual)}`;
    return {
      name,
      metric,
      passed,
      actual,
      expected: Math.round(limit * 1e6) / 1e6,
      message: `${metric} ${change} (tolerance ${tolerance})`,
    };
  });
}

/**
 * The gates of a finished run. An interrupted run meets none: its figures cover only the rows
 * done, so it gets one failing `complete` gate, and each gate asked for is kept (with what it
 * measured on those rows) but failed as not applied. Neither a JUnit file nor a `--json` reader can
 * then take the run for a pass.
 */
export function runGates(
  summary: BatchSummary,
  total: number,
  gates: readonly Gate[],
  baseline?: { readonly summary: Pick<BatchSummary, "metrics" | "guardrails">; readonly tolerance: number },
): GateResult[] {
  const results = [
    ...checkGates(summary, gates),
    ...(baseline
      ? compareBaseline(summary, baseline.summary, baselineMetrics(gates), baseline.tolerance)
      : []),
  ];
  if (!summary.interrupted) return results;
  const complete: GateResult = {
    name: "complete",
    metric: "rows",
    passed: false,
    actual: summary.rows,
    expected: total,
    message: `run interrupted after ${summary.rows} of ${total} rows`,
  };
  const notApplied = (g: GateResult): GateResult => ({
    ...g,
    passed: false,
    message: `not applied: the run was interrupted (on the rows done: ${g.message})`,
  });
  return [complete, ...results.map(notApplied)];
}
