import { recallAtFpr, rocAucOf, type Scored } from "../lib/metrics.js";

export type { Scored };

export interface Metrics {
  n: number;
  positives: number;
  auc: number | null;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  fpr: number | null;
  /** Recall at the highest threshold whose FPR on this set's negatives is at most 1%. */
  recallAt1Fpr: number | null;
}

export function metricsAt(items: Scored[], threshold: number): Metrics {
  const pos = items.filter((s) => s.label === 1);
  const neg = items.filter((s) => s.label === 0);
  const tp = pos.filter((s) => s.score >= threshold).length;
  const fp = neg.filter((s) => s.score >= threshold).length;
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = pos.length > 0 ? tp / pos.length : null;
  const f1 =
    precision !== null && recall !== null && precision + recall > 0
      ? (2 * precision * recall) / (precision + recall)
      : null;
  return {
    n: items.length,
    positives: pos.length,
    auc: rocAucOf(items),
    precision: neg.length > 0 ? precision : null,
    recall,
    f1: neg.length > 0 ? f1 : null,
    fpr: neg.length > 0 ? fp / neg.length : null,
    recallAt1Fpr: pos.length > 0 && neg.length > 0 ? recallAtFpr(items, 0.01) : null,
  };
}

/**
 * The lowest threshold whose FPR, averaged over benign sources with equal weight, is at most
 * `maxFpr`: a big source of easy negatives cannot hide a small source the model flags often.
 */
export function thresholdForBalancedFpr(bySource: number[][], maxFpr: number): number {
  const sources = bySource.filter((s) => s.length > 0);
  const candidates = [...new Set(sources.flat())].sort((a, b) => b - a);
  const balanced = (t: number) =>
    sources.reduce((sum, s) => sum + s.filter((x) => x >= t).length / s.length, 0) / sources.length;
  let best = 1;
  for (const c of candidates) {
    const t = c + 1e-6;
    if (balanced(t) > maxFpr) break;
    best = t;
  }
  return Math.min(1, best);
}

export interface PooledRule {
  /** Budget for the FPR over all benign texts pooled (the "≤ 2% on benign prompts"). */
  maxFpr: number;
  /** Sources with at least this many benign texts are also capped individually… */
  minSource: number;
  /** …at this FPR, so the pooled budget cannot be spent on one kind of prompt. */
  maxSourceFpr: number;
}

/**
 * The lowest threshold (highest recall) whose FPR over all benign texts pooled is at most
 * `maxFpr` and at which no source with ≥ `minSource` benign texts exceeds `maxSourceFpr`. Every
 * constraint is monotone in the threshold, so scanning down from the top and stopping at the
 * first violation finds it.
 */
export function thresholdForPooledFpr(bySource: number[][], rule: PooledRule): number {
  const sources = bySource.filter((s) => s.length > 0);
  const all = sources.flat();
  const capped = sources.filter((s) => s.length >= rule.minSource);
  const rate = (s: number[], t: number) => s.filter((x) => x >= t).length / s.length;
  const candidates = [...new Set(all)].sort((a, b) => b - a);
  let best = 1;
  for (const c of candidates) {
    const t = c + 1e-6;
    if (rate(all, t) > rule.maxFpr || capped.some((s) => rate(s, t) > rule.maxSourceFpr)) break;
    best = t;
  }
  return Math.min(1, best);
}
