/** Scores of one evaluated set: label 1 = injection. */
export interface Scored {
  score: number;
  label: 0 | 1;
}

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

/** ROC-AUC as the Mann–Whitney statistic (ties count half). */
export function rocAuc(items: Scored[]): number | null {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  const pos = items.filter((s) => s.label === 1).length;
  const neg = items.length - pos;
  if (pos === 0 || neg === 0) return null;
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && (sorted[j] as Scored).score === (sorted[i] as Scored).score) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if ((sorted[k] as Scored).label === 1) rankSum += rank;
    i = j;
  }
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
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
    auc: rocAuc(items),
    precision: neg.length > 0 ? precision : null,
    recall,
    f1: neg.length > 0 ? f1 : null,
    fpr: neg.length > 0 ? fp / neg.length : null,
    recallAt1Fpr: pos.length > 0 && neg.length > 0 ? recall1(pos, neg) : null,
  };
}

function recall1(pos: Scored[], neg: Scored[]): number {
  const negScores = neg.map((s) => s.score).sort((a, b) => b - a);
  // Flag strictly above the score of the (1% · negatives + 1)-th highest negative.
  const cut = negScores[Math.floor(neg.length * 0.01)] as number;
  return pos.filter((s) => s.score > cut).length / pos.length;
}

/** The lowest threshold whose FPR on `negatives` is at most `maxFpr`. */
export function thresholdForFpr(negatives: number[], maxFpr: number): number {
  const sorted = [...negatives].sort((a, b) => b - a);
  const allowed = Math.floor(negatives.length * maxFpr);
  const cut = sorted[allowed] ?? 0;
  return Math.min(1, cut + 1e-6);
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
