import type { CheckMode, GuardrailId } from "../guardrails/types.js";
import { averagePrecision, buildCurve, recallAtFpr, rocAuc, sampleCurves } from "./curves.js";
import { ThresholdTally } from "./effective-threshold.js";
import { exampleOf, maxScore, TopRows } from "./examples.js";
import { Growable } from "./growable.js";
import { histogram } from "./histogram.js";
import { LatencyRecorder } from "./latency.js";
import { count, emptyConfusion, metricsOf, ratio, round, roundMetrics } from "./metrics.js";
import { PiiEntityTally } from "./pii-entities.js";
import type { EvalRow } from "./rows.js";
import {
  type BatchSummary,
  type CategorySummary,
  type Confusion,
  type GuardrailSummary,
  type Progress,
  type Provenance,
  type RowResult,
  type Standalone,
  SUMMARY_VERSION,
} from "./summary.js";
import { recommend, sweep, type Target } from "./sweep.js";
import { MIN_NEGATIVES_AT_1PCT_FPR, tooFew } from "./too-few.js";

export interface AccumulatorOptions {
  readonly file: string;
  readonly mode: CheckMode;
  readonly profile: string;
  readonly provenance: Provenance;
  readonly concurrency: number;
  /** The enabled guardrails and their profile thresholds (null when they have none). */
  readonly guardrails: ReadonlyMap<GuardrailId, number | null>;
  /** The guardrails whose findings carry a graded score (`scoredGuardrails`): curves and sweeps are theirs. */
  readonly scored: readonly GuardrailId[];
  readonly sweep?: boolean;
  /** With `--target-fpr` or `--target-recall`: recommend a threshold per scored guardrail. */
  readonly target?: Target;
  readonly examples?: number;
}

const MAX_CATEGORIES = 1000;
const OTHER = "(other)";

interface PerGuardrail {
  flagged: number;
  tp: number;
  fp: number;
  /** Its own verdicts against the labels, whatever the other guardrails said. */
  standalone: Confusion;
  errors: number;
  thresholds: ThresholdTally;
  scores: Growable<Float64Array>;
  labels: Growable<Int8Array>;
}

/** Folds row results into the summary in bounded memory: counts, plus a few bytes per scored row. */
export class Accumulator {
  rows = 0;
  flagged = 0;
  labelled = 0;
  skipped = 0;
  errors = 0;
  readonly confusion: Confusion = emptyConfusion();
  readonly #piiEntities = new PiiEntityTally();
  readonly #categories = new Map<string, { rows: number; flagged: number; confusion: Confusion }>();
  readonly #guardrails = new Map<GuardrailId, PerGuardrail>();
  readonly #latency = new LatencyRecorder();
  readonly #engine = new LatencyRecorder();
  readonly #fps: TopRows;
  readonly #fns: TopRows;

  constructor(readonly options: AccumulatorOptions) {
    for (const id of options.guardrails.keys()) {
      this.#guardrails.set(id, {
        flagged: 0,
        tp: 0,
        fp: 0,
        standalone: emptyConfusion(),
        errors: 0,
        thresholds: new ThresholdTally(),
        scores: new Growable((n) => new Float64Array(n), 256),
        labels: new Growable((n) => new Int8Array(n), 256),
      });
    }
    this.#fps = new TopRows(options.examples ?? 10);
    this.#fns = new TopRows(options.examples ?? 10);
  }

  add(row: EvalRow, result: RowResult): void {
    this.rows++;
    if (result.flagged) this.flagged++;
    this.#latency.add(result.latency_ms);
    this.#engine.add(result.engine_ms);
    const flaggers: GuardrailId[] = [];
    let failed = false;
    for (const [id, g] of Object.entries(result.guardrails) as [
      GuardrailId,
      NonNullable<RowResult["guardrails"][GuardrailId]>,
    ][]) {
      const acc = this.#guardrails.get(id);
      if (!acc) continue;
      if (g.flagged) {
        acc.flagged++;
        flaggers.push(id);
      }
      acc.thresholds.add(g.threshold);
      if (result.label !== null) count(acc.standalone, result.label, g.flagged);
      if (g.error !== null) {
        acc.errors++;
        failed = true;
      }
      if (g.score !== null && this.options.scored.includes(id)) {
        acc.scores.push(g.score);
        acc.labels.push(result.label === null ? -1 : result.label ? 1 : 0);
      }
    }
    if (failed) this.errors++;
    const label = result.label;
    if (label !== null) {
      this.labelled++;
      count(this.confusion, label, result.flagged);
      const sole = flaggers.length === 1 ? this.#guardrails.get(flaggers[0] as GuardrailId) : undefined;
      if (sole) label ? sole.tp++ : sole.fp++;
      // Rule-only flags rank as most confident; unscored misses as the quietest.
      const { scored } = this.options;
      const score = maxScore(result, scored)?.score;
      if (!label && result.flagged) this.#fps.offer(score ?? Infinity, () => exampleOf(row, result, scored));
      if (label && !result.flagged)
        this.#fns.offer(-(score ?? -Infinity), () => exampleOf(row, result, scored));
    }
    this.#piiEntities.add(result.category, result.label, result.guardrails.pii?.entities);
    if (result.category !== null) {
      const key =
        this.#categories.has(result.category) || this.#categories.size < MAX_CATEGORIES
          ? result.category
          : OTHER;
      let cat = this.#categories.get(key);
      if (!cat) {
        cat = { rows: 0, flagged: 0, confusion: emptyConfusion() };
        this.#categories.set(key, cat);
      }
      cat.rows++;
      if (result.flagged) cat.flagged++;
      if (label !== null) count(cat.confusion, label, result.flagged);
    }
  }

  progress(elapsedMs: number, total: number | null): Progress {
    return {
      rows: this.rows,
      total,
      flagged: this.flagged,
      skipped: this.skipped,
      confusion: { ...this.confusion },
      f1: this.labelled > 0 ? metricsOf(this.confusion).f1 : null,
      rows_per_s: elapsedMs > 0 ? (this.rows * 1000) / elapsedMs : 0,
      elapsed_ms: elapsedMs,
    };
  }

  #guardrail(id: GuardrailId, acc: PerGuardrail): GuardrailSummary {
    const effective = acc.thresholds.effective(this.options.guardrails.get(id) ?? null);
    const { threshold } = effective;
    const base: GuardrailSummary = {
      flagged: acc.flagged,
      tp: acc.tp,
      fp: acc.fp,
      standalone: this.labelled > 0 ? standaloneOf(acc.standalone) : null,
      errors: acc.errors,
      scored: acc.scores.length,
      ...effective,
      auc: null,
      pr_auc: null,
      recall_at_1pct_fpr: null,
      threshold_at_1pct_fpr: null,
    };
    if (acc.scores.length === 0) return base;
    const curve = buildCurve(acc.scores.view(), acc.labels.view());
    const at1 = recallAtFpr(curve, 0.01);
    // Only when the figure would exist at all (both classes): then say why it is withheld.
    const tooFewBenign = at1.recall !== null && curve.negatives < MIN_NEGATIVES_AT_1PCT_FPR;
    return {
      ...base,
      auc: round(rocAuc(curve)),
      pr_auc: round(averagePrecision(curve)),
      recall_at_1pct_fpr: tooFewBenign ? null : round(at1.recall),
      threshold_at_1pct_fpr: tooFewBenign ? null : at1.threshold,
      ...(tooFewBenign
        ? {
            withheld: {
              recall_at_1pct_fpr: tooFew(
                "labelled benign rows scored",
                curve.negatives,
                MIN_NEGATIVES_AT_1PCT_FPR,
              ),
            },
          }
        : {}),
      ...sampleCurves(curve),
      histogram: histogram(acc.scores.view(), acc.labels.view()),
      ...(this.options.sweep ? { sweep: sweep(curve, threshold) } : {}),
      ...(this.options.target ? { recommendation: recommend(curve, this.options.target) } : {}),
    };
  }

  summary(elapsedMs: number, interrupted: boolean): BatchSummary {
    const guardrails: BatchSummary["guardrails"] = {};
    for (const [id, acc] of this.#guardrails) guardrails[id] = this.#guardrail(id, acc);
    const categories: Record<string, CategorySummary> = {};
    for (const [name, cat] of [...this.#categories].sort(([a], [b]) => a.localeCompare(b))) {
      categories[name] = { rows: cat.rows, flagged: cat.flagged, ...metricsOf(cat.confusion) };
    }
    const o = this.options;
    return {
      version: SUMMARY_VERSION,
      file: o.file,
      data_sha256: o.provenance.data_sha256,
      mode: o.mode,
      profile: o.profile,
      profile_file: o.provenance.profile_file,
      config_dir: o.provenance.config_dir,
      config_source: o.provenance.config_source,
      rows: this.rows,
      labelled: this.labelled,
      skipped: this.skipped,
      flagged: this.flagged,
      flag_rate: round(ratio(this.flagged, this.rows)),
      errors: this.errors,
      interrupted,
      metrics: this.labelled > 0 ? roundMetrics(metricsOf(this.confusion)) : null,
      guardrails,
      categories,
      pii_entities: this.#piiEntities.summary(),
      latency: this.#latency.summary(),
      engine_ms_per_row: this.#engine.summary(),
      throughput_rows_per_s: elapsedMs > 0 ? round((this.rows * 1000) / elapsedMs, 1) : null,
      elapsed_ms: Math.round(elapsedMs),
      concurrency: o.concurrency,
      examples: { false_positives: this.#fps.list(), false_negatives: this.#fns.list() },
      gates: [],
      baseline_warnings: [],
    };
  }
}

function standaloneOf(c: Confusion): Standalone {
  const m = metricsOf(c);
  return { ...c, precision: round(m.precision), recall: round(m.recall), fpr: round(m.fpr) };
}
