/**
 * Figures the trainers print and write into model cards. ROC-AUC is the runtime's
 * (src/eval/curves.ts, which `guardrail batch` reports), so a card and a batch run agree to the
 * last bit; the rest are the trainers' own conventions: 0 (not null) where a ratio is undefined,
 * and recall at an FPR budget cut strictly above a negative's score.
 */
import { buildCurve, rocAuc } from "../../src/eval/curves.js";

/** One scored, labelled text: label 1 is the positive class (an attack, a leak, unsafe). */
export interface Scored {
  readonly score: number;
  readonly label: 0 | 1;
}

/** ROC-AUC, ties counted half; null without both classes. */
export function rocAucOf(rows: readonly Scored[]): number | null {
  const scores = Float64Array.from(rows, (r) => r.score);
  const labels = Int8Array.from(rows, (r) => r.label);
  return rocAuc(buildCurve(scores, labels));
}

export interface AtThreshold {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
  readonly n: number;
}

/** Precision, recall, F1 and FPR flagging `score >= threshold`; 0 where undefined. */
export function atThreshold(rows: readonly Scored[], threshold: number): AtThreshold {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const { score, label } of rows) {
    const flagged = score >= threshold;
    if (label === 1) flagged ? tp++ : fn++;
    else flagged ? fp++ : tn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, fpr: fp + tn ? fp / (fp + tn) : 0, n: rows.length };
}

/**
 * Recall flagging strictly above the (⌊maxFpr·negatives⌋ + 1)-th highest negative score: at most
 * that share of negatives flagged. 0 without positives.
 */
export function recallAtFpr(rows: readonly Scored[], maxFpr: number): number {
  const negatives = rows
    .filter((r) => r.label === 0)
    .map((r) => r.score)
    .sort((a, b) => b - a);
  const cut = negatives[Math.floor(negatives.length * maxFpr)] ?? Number.NEGATIVE_INFINITY;
  const positives = rows.filter((r) => r.label === 1);
  return positives.filter((r) => r.score > cut).length / Math.max(1, positives.length);
}
