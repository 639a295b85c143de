import { type Curve, pointAt } from "./curves.js";
import type { Recommendation, SweepPoint } from "./summary.js";

/** The sweep table: thresholds 0, 0.05, …, 1 (and the profile's own threshold when it is off the grid). */
export function sweep(curve: Curve, current: number | null, step = 0.05): SweepPoint[] {
  const grid = new Set<number>();
  for (let k = 0; k <= Math.round(1 / step); k++) grid.add(Math.round(k * step * 1e6) / 1e6);
  if (current !== null) grid.add(current);
  return [...grid].sort((a, b) => a - b).map((t) => pointAt(curve, t));
}

/**
 * A short decimal strictly between the chosen score and the next lower one, so that the threshold
 * flags exactly the rows at or above the chosen score whether a guardrail compares with ≥ or >,
 * and survives scores rounded to 4 decimals as well as the gap allows.
 */
export function thresholdBetween(score: number, below: number | undefined): number {
  const lo = below ?? score - 0.02;
  const gap = score - lo;
  const mid = lo + gap / 2;
  for (let digits = 1; digits <= 10; digits++) {
    const c = Math.round(mid * 10 ** digits) / 10 ** digits;
    if (c > lo + gap / 4 && c < score - gap / 4) return Math.min(1, Math.max(0, c));
  }
  return Math.min(1, Math.max(0, mid));
}

export type Target = Recommendation["target"];

/**
 * The best operating point meeting the target: for an FPR cap, the highest recall (then the lowest
 * FPR); for a recall floor, the lowest FPR (then the highest recall). Exact over every distinct score.
 */
export function recommend(curve: Curve, target: Target): Recommendation {
  const none = (reason: string): Recommendation => ({ target, threshold: null, at: null, reason });
  if (curve.positives === 0 || curve.negatives === 0) {
    return none("needs labelled rows of both classes with scores");
  }
  let best = -1;
  for (let k = 0; k < curve.thresholds.length; k++) {
    const tp = curve.tp[k] as number;
    const fp = curve.fp[k] as number;
    const meets =
      target.metric === "fpr" ? fp / curve.negatives <= target.value : tp / curve.positives >= target.value;
    if (!meets || tp === 0) continue;
    if (best === -1) {
      best = k;
      continue;
    }
    const bt = curve.tp[best] as number;
    const bf = curve.fp[best] as number;
    const better =
      target.metric === "fpr" ? tp > bt || (tp === bt && fp < bf) : fp < bf || (fp === bf && tp > bt);
    if (better) best = k;
  }
  const name = target.metric === "fpr" ? `FPR ≤ ${target.value}` : `recall ≥ ${target.value}`;
  if (best === -1) return none(`no threshold reaches ${name}`);
  const threshold = thresholdBetween(curve.thresholds[best] as number, curve.thresholds[best + 1]);
  const at = pointAt(curve, threshold);
  return { target, threshold, at, reason: `the best threshold with ${name}` };
}
