/**
 * The shape of `summary.compare`, what `batch --compare B` adds to the summary (and `--json`):
 * profile A (`--profile`, the one the gates judge) beside profile B on the same rows. Like the
 * rest of the summary, snake_case and part of the CLI's contract. Deltas are B minus A.
 */
import type { GuardrailId } from "../guardrails/types.js";
import type { McNemar } from "./mcnemar.js";
import type { Metrics } from "./summary.js";

export interface ComparedProfile {
  profile: string;
  /** The profile's YAML file, relative to the working directory when inside it. */
  profile_file: string;
}

/** B minus A: counts, and ratios where both are defined (null where either is not). */
export interface MetricDelta {
  flagged: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number | null;
  recall: number | null;
  fpr: number | null;
  f1: number | null;
}

/** One side's figures: rows flagged, and with labels its confusion counts and ratios. */
export interface SideFigures {
  flagged: number;
  /** Null without labels; for a guardrail, its own verdicts as if it ran alone (see Standalone). */
  metrics: Metrics | null;
}

export interface GuardrailComparison {
  /** Null when that profile does not run the guardrail in this mode. */
  a: SideFigures | null;
  b: SideFigures | null;
  /** Null unless both profiles run it. */
  delta: MetricDelta | null;
  /** On the guardrail's own verdicts; null unless both run it and rows are labelled. */
  mcnemar: McNemar | null;
}

/** A row the two profiles judged differently. */
export interface FlippedRow {
  row: number;
  line: number;
  id: string | null;
  label: boolean | null;
  category: string | null;
  /** The text, cut to 300 characters. */
  text: string;
  a: FlipSide;
  b: FlipSide;
}

export interface FlipSide {
  flagged: boolean;
  /** The highest score a score-bearing guardrail gave the row, and whose it is. */
  score: number | null;
  score_guardrail: GuardrailId | null;
  /** The guardrails that flagged it. */
  guardrails: GuardrailId[];
}

export interface Flips {
  /** Every such row. */
  count: number;
  /** The first few in file order (FLIPPED_KEPT at most). */
  rows: FlippedRow[];
}

export interface CompareSummary {
  a: ComparedProfile;
  b: ComparedProfile;
  rows: number;
  labelled: number;
  overall: { a: SideFigures; b: SideFigures; delta: MetricDelta };
  /** Every guardrail either profile runs in this mode. */
  guardrails: Partial<Record<GuardrailId, GuardrailComparison>>;
  /**
   * The exact McNemar test on whether each verdict matches its label: `b` rows only A got right,
   * `c` rows only B got right. Null without labels, with the reason in `mcnemar_note`.
   */
  mcnemar: McNemar | null;
  mcnemar_note: string | null;
  /** `a_only`: A flagged and B did not; `b_only`: B flagged and A did not. Labelled or not. */
  flipped: { a_only: Flips; b_only: Flips };
}
