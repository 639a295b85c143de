/** Evaluation figures and calibration for the moderation model card. */
import type { Platt } from "../../src/guardrails/content-moderation/model/weights.js";

export interface Scored {
  readonly score: number;
  readonly label: 0 | 1;
}

/** ROC-AUC by the rank-sum (Mann–Whitney U) formula, ties counted half. */
export function rocAuc(items: readonly Scored[]): number {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as Scored).score === (sorted[i] as Scored).score) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++)
      if ((sorted[k] as Scored).label === 1) {
        rankSum += rank;
        positives++;
      }
    i = j + 1;
  }
  const negatives = sorted.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface AtThreshold {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
  readonly n: number;
}

export function atThreshold(items: readonly Scored[], threshold: number): AtThreshold {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const { score, label } of items) {
    const flagged = score >= threshold;
    if (flagged && label === 1) tp++;
    else if (flagged) fp++;
    else if (label === 1) fn++;
    else tn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, fpr: fp + tn ? fp / (fp + tn) : 0, n: items.length };
}

/** Recall at the lowest threshold whose false-positive rate stays at or under `maxFpr`. */
export function recallAtFpr(items: readonly Scored[], maxFpr: number): number {
  const negatives = items
    .filter((x) => x.label === 0)
    .map((x) => x.score)
    .sort((a, b) => b - a);
  const allowed = Math.floor(maxFpr * negatives.length);
  // Flag strictly above the (allowed+1)-th highest negative score.
  const cut = negatives[allowed] ?? Number.NEGATIVE_INFINITY;
  const positives = items.filter((x) => x.label === 1);
  return positives.filter((x) => x.score > cut).length / Math.max(1, positives.length);
}

/**
 * Platt scaling fitted by Newton's method on (logit, label) pairs with Platt's smoothed targets
 * (Platt 1999, "Probabilistic outputs for support vector machines"), optional sample weights.
 */
export function fitPlatt(z: readonly number[], y: readonly (0 | 1)[], w?: readonly number[]): Platt {
  const weight = (i: number) => w?.[i] ?? 1;
  let pos = 0;
  let neg = 0;
  y.forEach((l, i) => {
    if (l) pos += weight(i);
    else neg += weight(i);
  });
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  let a = 1;
  let b = 0;
  for (let iter = 0; iter < 100; iter++) {
    let ga = 0,
      gb = 0,
      haa = 1e-9,
      hab = 0,
      hbb = 1e-9;
    z.forEach((zi, i) => {
      const p = 1 / (1 + Math.exp(-(a * zi + b)));
      const t = y[i] ? hi : lo;
      const d = (p - t) * weight(i);
      const s = p * (1 - p) * weight(i);
      ga += d * zi;
      gb += d;
      haa += s * zi * zi;
      hab += s * zi;
      hbb += s;
    });
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return [a, b];
}

/** Accuracy and macro-F1 over the classes that occur in the gold labels. */
export function categoryFigures(gold: readonly number[], predicted: readonly number[], classes: number) {
  const tp = new Array<number>(classes).fill(0);
  const fp = new Array<number>(classes).fill(0);
  const fn = new Array<number>(classes).fill(0);
  gold.forEach((g, i) => {
    const p = predicted[i] as number;
    if (p === g) tp[g] = (tp[g] as number) + 1;
    else {
      fp[p] = (fp[p] as number) + 1;
      fn[g] = (fn[g] as number) + 1;
    }
  });
  const present = [...new Set(gold)];
  const f1s = present.map((c) => {
    const t = tp[c] as number;
    return t ? (2 * t) / (2 * t + (fp[c] as number) + (fn[c] as number)) : 0;
  });
  const correct = gold.filter((g, i) => g === predicted[i]).length;
  return {
    accuracy: correct / Math.max(1, gold.length),
    macroF1: f1s.reduce((s, v) => s + v, 0) / Math.max(1, f1s.length),
    n: gold.length,
  };
}
