import type { GuardrailId } from "../guardrails/types.js";
import type {
  ComparedProfile,
  CompareSummary,
  FlippedRow,
  Flips,
  GuardrailComparison,
  MetricDelta,
  SideFigures,
} from "./compare-summary.js";
import { exampleOf } from "./examples.js";
import { mcnemar } from "./mcnemar.js";
import { count, emptyConfusion, metricsOf, round, roundMetrics } from "./metrics.js";
import type { EvalRow } from "./rows.js";
import type { Confusion, Metrics, RowResult, RowVerdict } from "./summary.js";

/** Flipped rows kept each way for the summary; the terminal shows fewer, every one is counted. */
export const FLIPPED_KEPT = 50;

export interface CompareOptions {
  readonly a: ComparedProfile;
  readonly b: ComparedProfile;
  /** The guardrails each profile runs in this mode. */
  readonly guardrails: { readonly a: readonly GuardrailId[]; readonly b: readonly GuardrailId[] };
  readonly scored: readonly GuardrailId[];
}

/** One pair of verdicts tallied: each side's counts, and the rows only one side got right. */
class Paired {
  readonly a = { flagged: 0, confusion: emptyConfusion() };
  readonly b = { flagged: 0, confusion: emptyConfusion() };
  onlyA = 0;
  onlyB = 0;
  add(label: boolean | null, a: boolean, b: boolean): void {
    if (a) this.a.flagged++;
    if (b) this.b.flagged++;
    if (label === null) return;
    count(this.a.confusion, label, a);
    count(this.b.confusion, label, b);
    if ((a === label) !== (b === label)) a === label ? this.onlyA++ : this.onlyB++;
  }
}

const figures = (side: Paired["a"], labelled: boolean): SideFigures => ({
  flagged: side.flagged,
  metrics: labelled ? roundMetrics(metricsOf(side.confusion)) : null,
});

function deltaOf(a: SideFigures, b: SideFigures): MetricDelta {
  const counts = (m: Metrics | null): Confusion => m ?? emptyConfusion();
  const [ca, cb] = [counts(a.metrics), counts(b.metrics)];
  const diff = (k: "precision" | "recall" | "fpr" | "f1") => {
    const [x, y] = [a.metrics?.[k], b.metrics?.[k]];
    return x == null || y == null ? null : round(y - x);
  };
  return {
    flagged: b.flagged - a.flagged,
    tp: cb.tp - ca.tp,
    fp: cb.fp - ca.fp,
    tn: cb.tn - ca.tn,
    fn: cb.fn - ca.fn,
    precision: diff("precision"),
    recall: diff("recall"),
    fpr: diff("fpr"),
    f1: diff("f1"),
  };
}

/**
 * Folds each row's pair of verdicts (A's in the result, B's in `result.compared`) into the
 * comparison: in bounded memory, counts plus the first FLIPPED_KEPT flipped rows each way.
 */
export class CompareTally {
  rows = 0;
  labelled = 0;
  readonly #overall = new Paired();
  readonly #guardrails = new Map<GuardrailId, Paired>();
  readonly #flips = { a_only: { count: 0, rows: [] } as Flips, b_only: { count: 0, rows: [] } as Flips };

  constructor(readonly options: CompareOptions) {
    for (const id of new Set([...options.guardrails.a, ...options.guardrails.b]))
      this.#guardrails.set(id, new Paired());
  }

  add(row: EvalRow, result: RowResult): void {
    const b = result.compared;
    if (!b) throw new Error(`row ${result.row} has no second verdict to compare`);
    this.rows++;
    if (result.label !== null) this.labelled++;
    this.#overall.add(result.label, result.flagged, b.flagged);
    for (const [id, pair] of this.#guardrails)
      pair.add(result.label, result.guardrails[id]?.flagged === true, b.guardrails[id]?.flagged === true);
    if (result.flagged === b.flagged) return;
    const flips = result.flagged ? this.#flips.a_only : this.#flips.b_only;
    flips.count++;
    if (flips.rows.length < FLIPPED_KEPT) flips.rows.push(this.#flipped(row, result, b));
  }

  #flipped(row: EvalRow, a: RowResult, b: RowVerdict): FlippedRow {
    const side = (r: Pick<RowResult, "flagged" | "guardrails">) => {
      const e = exampleOf(row, { ...a, ...r }, this.options.scored);
      return {
        flagged: r.flagged,
        score: e.score,
        score_guardrail: e.score_guardrail,
        guardrails: e.guardrails,
      };
    };
    const { text } = exampleOf(row, a, []);
    return {
      row: row.row,
      line: row.line,
      id: row.id,
      label: a.label,
      category: row.category,
      text,
      a: side(a),
      b: side(b),
    };
  }

  summary(): CompareSummary {
    const labelled = this.labelled > 0;
    const { a, b, guardrails: runs } = this.options;
    const guardrails: CompareSummary["guardrails"] = {};
    for (const [id, pair] of this.#guardrails) {
      const [inA, inB] = [runs.a.includes(id), runs.b.includes(id)];
      const [fa, fb] = [figures(pair.a, labelled), figures(pair.b, labelled)];
      const both = inA && inB;
      guardrails[id] = {
        a: inA ? fa : null,
        b: inB ? fb : null,
        delta: both ? deltaOf(fa, fb) : null,
        mcnemar: both && labelled ? mcnemar(pair.onlyA, pair.onlyB) : null,
      } satisfies GuardrailComparison;
    }
    const overall = { a: figures(this.#overall.a, labelled), b: figures(this.#overall.b, labelled) };
    return {
      a,
      b,
      rows: this.rows,
      labelled: this.labelled,
      overall: { ...overall, delta: deltaOf(overall.a, overall.b) },
      guardrails,
      mcnemar: labelled ? mcnemar(this.#overall.onlyA, this.#overall.onlyB) : null,
      mcnemar_note: labelled
        ? null
        : "no labels: McNemar's test compares which verdicts match the labels, so it needs a label column",
      flipped: this.#flips,
    };
  }
}
