import type { GuardrailSummary } from "../summary.js";

export interface OperatingPoint {
  threshold: number;
  fpr: number;
  tpr: number;
  precision: number | null;
  /** False when read off the histogram with a threshold between two bin edges (then approximate). */
  exact: boolean;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Where the guardrail's threshold sits on its ROC and PR curves: from the sweep when it has that
 * threshold, else counted from the histogram (exact when the threshold falls on a bin edge, as the
 * usual 0.05 steps do). Null without both classes among the scored rows.
 */
export function operatingPoint(g: GuardrailSummary, threshold: number | null): OperatingPoint | null {
  if (threshold === null) return null;
  const swept = g.sweep?.find((p) => p.threshold === threshold);
  if (swept && swept.fpr !== null && swept.recall !== null) {
    return { threshold, fpr: swept.fpr, tpr: swept.recall, precision: swept.precision, exact: true };
  }
  const h = g.histogram;
  if (!h) return null;
  const positives = sum(h.positive);
  const negatives = sum(h.negative);
  if (positives === 0 || negatives === 0) return null;
  let tp = 0;
  let fp = 0;
  let exact = false;
  h.positive.forEach((_, i) => {
    const lo = h.edges[i] ?? 0;
    if (Math.abs(lo - threshold) < 1e-9) exact = true;
    if (lo >= threshold - 1e-9) {
      tp += h.positive[i] ?? 0;
      fp += h.negative[i] ?? 0;
    }
  });
  if (threshold >= 1 - 1e-9 || threshold <= 1e-9) exact = true;
  return {
    threshold,
    fpr: fp / negatives,
    tpr: tp / positives,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    exact,
  };
}
