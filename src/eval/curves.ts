/**
 * Exact ranking metrics from every labelled score. The accumulator keeps one float64 score and one
 * int8 label per scored row (9 bytes: a million rows is 9 MB per guardrail); nothing is binned, so
 * AUC, PR-AUC and recall at 1% FPR are exact, ties included.
 */
import { f1Of, ratio } from "./metrics.js";
import type { SweepPoint } from "./summary.js";

/** Operating points in descending threshold order: flagging `score >= thresholds[k]` gives tp[k], fp[k]. */
export interface Curve {
  readonly thresholds: Float64Array;
  readonly tp: Float64Array;
  readonly fp: Float64Array;
  readonly positives: number;
  readonly negatives: number;
  /** Scores sorted ascending, per class, for sweeps at arbitrary thresholds. */
  readonly pos: Float64Array;
  readonly neg: Float64Array;
}

/** `labels[i]` is 1, 0, or -1 for an unlabelled row (left out). */
export function buildCurve(scores: Float64Array, labels: Int8Array): Curve {
  let positives = 0;
  let negatives = 0;
  for (const label of labels) label === 1 ? positives++ : label === 0 ? negatives++ : 0;
  const pos = new Float64Array(positives);
  const neg = new Float64Array(negatives);
  let p = 0;
  let n = 0;
  labels.forEach((label, i) => {
    if (label === 1) pos[p++] = scores[i] as number;
    else if (label === 0) neg[n++] = scores[i] as number;
  });
  pos.sort();
  neg.sort();
  const thresholds: number[] = [];
  const tps: number[] = [];
  const fps: number[] = [];
  let i = positives - 1;
  let j = negatives - 1;
  let tp = 0;
  let fp = 0;
  while (i >= 0 || j >= 0) {
    const t = Math.max(i >= 0 ? (pos[i] as number) : -Infinity, j >= 0 ? (neg[j] as number) : -Infinity);
    for (; i >= 0 && pos[i] === t; i--) tp++;
    for (; j >= 0 && neg[j] === t; j--) fp++;
    thresholds.push(t);
    tps.push(tp);
    fps.push(fp);
  }
  return {
    thresholds: Float64Array.from(thresholds),
    tp: Float64Array.from(tps),
    fp: Float64Array.from(fps),
    positives,
    negatives,
    pos,
    neg,
  };
}

const bothClasses = (c: Curve) => c.positives > 0 && c.negatives > 0;

/**
 * ROC-AUC as the Mann–Whitney statistic: P(score+ > score-) + ½ P(score+ = score-), the area under
 * the curve by the trapezoid rule. The pair counts are summed exactly (whole and half numbers) and
 * divided once, so the value is the correctly rounded fraction, whatever the order of the scores.
 */
export function rocAuc(c: Curve): number | null {
  if (!bothClasses(c)) return null;
  let pairs = 0;
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < c.thresholds.length; k++) {
    const nextTp = c.tp[k] as number;
    const nextFp = c.fp[k] as number;
    // The negatives at this threshold: each outranked by the positives above it, tied with those at it.
    pairs += (nextFp - fp) * (tp + (nextTp - tp) / 2);
    tp = nextTp;
    fp = nextFp;
  }
  return pairs / (c.positives * c.negatives);
}

/** Average precision: Σ (R_k − R_{k−1}) · P_k over thresholds, high to low (no interpolation). */
export function averagePrecision(c: Curve): number | null {
  if (!bothClasses(c)) return null;
  let ap = 0;
  let recall = 0;
  for (let k = 0; k < c.thresholds.length; k++) {
    const tp = c.tp[k] as number;
    const next = tp / c.positives;
    ap += (next - recall) * (tp / (tp + (c.fp[k] as number)));
    recall = next;
  }
  return ap;
}

/** The highest recall with FPR ≤ maxFpr, and the threshold giving it (null: flag nothing). */
export function recallAtFpr(c: Curve, maxFpr: number): { recall: number | null; threshold: number | null } {
  if (!bothClasses(c)) return { recall: null, threshold: null };
  let best = { recall: 0, threshold: null as number | null };
  for (let k = 0; k < c.thresholds.length; k++) {
    if ((c.fp[k] as number) / c.negatives > maxFpr) break; // fp only grows as the threshold falls
    const recall = (c.tp[k] as number) / c.positives;
    if (recall > best.recall) best = { recall, threshold: c.thresholds[k] as number };
  }
  return best;
}

/** Number of values ≥ t in an ascending array. */
function atLeast(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

export function pointAt(c: Curve, threshold: number): SweepPoint {
  const tp = atLeast(c.pos, threshold);
  const fp = atLeast(c.neg, threshold);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, c.positives);
  return { threshold, precision, recall, fpr: ratio(fp, c.negatives), f1: f1Of(precision, recall) };
}

/** Up to `max` points of the ROC ([fpr, tpr]) and PR ([recall, precision]) curves, for plotting. */
export function sampleCurves(c: Curve, max = 200): { roc: [number, number][]; pr: [number, number][] } {
  if (!bothClasses(c)) return { roc: [], pr: [] };
  const n = c.thresholds.length;
  const step = Math.max(1, Math.ceil(n / max));
  const roc: [number, number][] = [[0, 0]];
  const pr: [number, number][] = [];
  for (let k = 0; k < n; k += step) push(k);
  if ((n - 1) % step !== 0) push(n - 1);
  return { roc, pr };
  function push(k: number) {
    const tp = c.tp[k] as number;
    const fp = c.fp[k] as number;
    roc.push([fp / c.negatives, tp / c.positives]);
    pr.push([tp / c.positives, tp + fp === 0 ? 1 : tp / (tp + fp)]);
  }
}
