/**
 * The stable shapes of `guardrail batch`: the summary (`--json` prints exactly this object), the
 * per-row result, and the progress events the runner emits for whatever view renders them.
 * Field names are snake_case and part of the CLI's contract; add fields, never rename them.
 * A ratio that is undefined (precision with nothing flagged, recall with no positives) is `null`.
 */

import type { ConfigOrigin } from "../config/origin.js";
import type { CheckMode, GuardrailId } from "../guardrails/types.js";
import type { CompareSummary } from "./compare-summary.js";
import type { PiiEntitySummary } from "./pii-entities.js";

export const SUMMARY_VERSION = 1;

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface Metrics extends Confusion {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  accuracy: number | null;
  /** False-positive rate: fp / (fp + tn). */
  fpr: number | null;
  /** False-negative rate: fn / (fn + tp). */
  fnr: number | null;
}

/** One row of a threshold sweep: the metrics of flagging when score >= threshold. */
export interface SweepPoint {
  threshold: number;
  precision: number | null;
  recall: number | null;
  fpr: number | null;
  f1: number | null;
}

export interface Recommendation {
  target: { metric: "fpr" | "recall"; value: number };
  /** The recommended threshold, or null when no threshold meets the target. */
  threshold: number | null;
  /** The metrics at that threshold (null when none meets the target). */
  at: SweepPoint | null;
  reason: string;
}

/** Histogram of scores split by label, for the report; `edges` has `bins + 1` entries over [0, 1]. */
export interface ScoreHistogram {
  edges: number[];
  positive: number[];
  negative: number[];
  unlabelled: number[];
}

/** A guardrail's figures as if it were the profile's only guardrail: its own verdicts against the labels. */
export interface Standalone extends Confusion {
  precision: number | null;
  recall: number | null;
  fpr: number | null;
}

export interface GuardrailSummary {
  /** Rows this guardrail flagged (whether or not others did too). */
  flagged: number;
  /**
   * Labelled positives flagged by this guardrail and by no other: true positives it alone caused
   * (what removing it would lose). Not its total: that is `standalone.tp`.
   */
  tp: number;
  /** Labelled negatives flagged by this guardrail and by no other: false positives it alone caused. */
  fp: number;
  /** Its verdicts on their own against the labels; null when no row is labelled. */
  standalone: Standalone | null;
  /** Rows on which the guardrail failed (its verdict then followed the profile's `on_error`). */
  errors: number;
  /** Rows whose finding carried a score. Zero for rule-based guardrails. */
  scored: number;
  /**
   * The threshold the guardrail applied: the profile's, or when the profile leaves it out the
   * model's own (the one most rows' findings reported). Null for guardrails without one.
   */
  threshold: number | null;
  /** `profile` when the profile sets the threshold, `model` when the model's own applied. */
  threshold_source: "profile" | "model" | null;
  /** ROC-AUC over labelled scored rows (ties count one half); null without both classes. */
  auc: number | null;
  /** Average precision (step-wise area under the precision-recall curve). */
  pr_auc: number | null;
  /** Highest recall at a threshold whose FPR is at most 1%. */
  recall_at_1pct_fpr: number | null;
  /** The lowest such threshold. */
  threshold_at_1pct_fpr: number | null;
  /** Figures left null because the run has too few rows for them to mean anything, and why. */
  withheld?: { recall_at_1pct_fpr?: string };
  /** Down-sampled curves for plotting: [fpr, tpr] and [recall, precision] pairs. */
  roc?: [number, number][];
  pr?: [number, number][];
  histogram?: ScoreHistogram;
  /** With `--sweep`: the thresholds table. */
  sweep?: SweepPoint[];
  /** With `--target-fpr` or `--target-recall`. */
  recommendation?: Recommendation;
}

export interface CategorySummary extends Metrics {
  rows: number;
  flagged: number;
}

/** A misclassified row kept for the report (the worst few of each kind). */
export interface RowExample {
  row: number;
  line: number;
  id: string | null;
  /** The text, cut to 300 characters. */
  text: string;
  category: string | null;
  /** The highest score any score-bearing guardrail gave the row, when one did. */
  score: number | null;
  /** The guardrail that gave that score. */
  score_guardrail: GuardrailId | null;
  /** Guardrails that flagged the row. */
  guardrails: GuardrailId[];
}

export interface GateResult {
  /** e.g. `f1>=0.9`, `fpr<=0.02`, `baseline:recall`. */
  name: string;
  metric: string;
  passed: boolean;
  actual: number | null;
  /** The bound the metric had to meet; null when there was none (the baseline lacks the metric). */
  expected: number | null;
  message: string;
}

export interface Latency {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
  max_ms: number | null;
  /** Percentiles left null because too few rows were timed to tell them from the maximum, and why. */
  withheld?: Partial<Record<"p50_ms" | "p95_ms" | "p99_ms", string>>;
}

/** What a run ran on, so that a `--baseline` comparison can tell it compares like with like. */
export interface Provenance {
  /** SHA-256 of the data set's bytes (of stdin as read, for `-`). */
  data_sha256: string;
  /** The profile's YAML file, relative to the working directory when inside it. */
  profile_file: string;
  /** The config directory the profile came from (null: the bundled profiles), and why that one. */
  config_dir: ConfigOrigin["config_dir"];
  config_source: ConfigOrigin["config_source"];
}

export interface BatchSummary extends Provenance {
  version: typeof SUMMARY_VERSION;
  file: string;
  mode: CheckMode;
  profile: string;
  /** Rows evaluated. */
  rows: number;
  /** Rows with a label (metrics cover these). */
  labelled: number;
  /** Invalid rows skipped with `--skip-invalid`. */
  skipped: number;
  flagged: number;
  flag_rate: number | null;
  /** Rows on which at least one guardrail failed. */
  errors: number;
  /** Stopped early (Ctrl-C): the figures cover the rows done. */
  interrupted: boolean;
  /** Null when no row is labelled. */
  metrics: Metrics | null;
  guardrails: Partial<Record<GuardrailId, GuardrailSummary>>;
  /** Per value of the category column; empty without one. */
  categories: Record<string, CategorySummary>;
  /**
   * With pii on and a category column naming entity types: per type, the rows of that category
   * where pii found it (recall) and the rows where pii reported it that are of it (precision).
   * Null otherwise.
   */
  pii_entities: Record<string, PiiEntitySummary> | null;
  /**
   * Each row's wall time from the start of its engine check to its verdict. Rows are checked in
   * batches that share one encoder call (and a worker's other batch), so this is about the time of
   * the row's whole batch, not of the row: see `engine_ms_per_row`.
   */
  latency: Latency;
  /**
   * Engine time per row: the engine time of each row's batch divided by the rows in it, what one
   * row costs a worker. A lone request (no batch to share the encoder call with) takes longer.
   */
  engine_ms_per_row: Latency;
  throughput_rows_per_s: number | null;
  elapsed_ms: number;
  concurrency: number;
  examples: { false_positives: RowExample[]; false_negatives: RowExample[] };
  /**
   * Every gate checked (`--fail-under`, `--max-fpr`, `--baseline`), passed or not. An interrupted
   * run fails a first `complete` gate and every other one (see `runGates`).
   */
  gates: GateResult[];
  /** With `--baseline`: how the baseline's data set or profile differ from this run's (empty when alike). */
  baseline_warnings: string[];
  /** With `--compare B`: this profile beside B on the same rows. Absent otherwise. */
  compare?: CompareSummary;
}

/** One guardrail's part of a row result. */
export interface RowGuardrailResult {
  flagged: boolean;
  score: number | null;
  matched: string[];
  entities: string[];
  category: string | null;
  /** The threshold the finding was judged against, when the guardrail has one. */
  threshold: number | null;
  error: string | null;
}

/** What `--out` writes per row, and what the workers send back. */
export interface RowResult {
  /** 1-based data row (header excluded). */
  row: number;
  /** 1-based line in the file where the row starts. */
  line: number;
  id: string | null;
  label: boolean | null;
  category: string | null;
  flagged: boolean;
  /** Wall time of the row's check, which ran alongside the rest of its batch (see `latency`). */
  latency_ms: number;
  /** The row's share of its batch's engine time: the batch's time divided by its rows. */
  engine_ms: number;
  guardrails: Partial<Record<GuardrailId, RowGuardrailResult>>;
  /** With `--compare`: the second profile's verdict on the same row. */
  compared?: RowVerdict;
}

/** A profile's verdict on a row and its guardrails' (the `--compare` profile's, beside the first's). */
export type RowVerdict = Pick<RowResult, "flagged" | "guardrails">;

export interface Progress {
  rows: number;
  /** Known after the validation pass; null when it is not. */
  total: number | null;
  flagged: number;
  skipped: number;
  confusion: Confusion;
  f1: number | null;
  rows_per_s: number;
  elapsed_ms: number;
}

export interface InvalidRow {
  row: number;
  line: number;
  reason: string;
}

/** Events of a batch run, for `runner.on(name, listener)`. */
export interface BatchEvents {
  /** The validation pass finished: how many rows will run and which were invalid. */
  validated: [{ total: number; invalid: number }];
  /** A batch of rows finished (at most every ~100 ms and at the end). */
  progress: [Progress];
  /** One row finished, in input order. */
  row: [RowResult];
  /** The summary of the rows done. */
  done: [BatchSummary];
}
