/**
 * Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines", with his smoothed
 * targets): fits p = σ(a·z + b) to held-out raw scores by Newton's method, so a threshold reads as
 * a probability.
 */
import { sigmoid } from "../../src/models/math.js";

export interface PlattOptions {
  /**
   * Weight the classes equally, whatever their counts (the `llm` trainer), so the fit does not
   * depend on how many positives the calibration set happens to hold. Default false.
   */
  readonly balanceClasses?: boolean;
  /** The share of positives the probability assumes: b is moved to it. Default 0.5 (b unchanged). */
  readonly prior?: number;
  /** Newton stops when |Δa| + |Δb| falls below this. Default 1e-9. */
  readonly tolerance?: number;
}

export function fitPlatt(
  scores: readonly number[],
  labels: readonly (0 | 1)[],
  options: PlattOptions = {},
): { a: number; b: number } {
  const { balanceClasses = false, prior = 0.5, tolerance = 1e-9 } = options;
  const pos = labels.filter((y) => y === 1).length;
  const neg = labels.length - pos;
  // With weights of 1 every product below is the unweighted one exactly (1·x === x).
  const weight = balanceClasses ? [labels.length / 2 / (neg || 1), labels.length / 2 / (pos || 1)] : [1, 1];
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  let a = 1;
  let b = 0;
  for (let iter = 0; iter < 100; iter++) {
    let [gA, gB, hAA, hAB, hBB] = [0, 0, 1e-9, 0, 1e-9];
    scores.forEach((z, i) => {
      const t = labels[i] === 1 ? hi : lo;
      const p = sigmoid(a * z + b);
      const c = weight[labels[i] as number] as number;
      const d = c * (p - t);
      const w = c * p * (1 - p);
      gA += d * z;
      gB += d;
      hAA += w * z * z;
      hAB += w * z;
      hBB += w;
    });
    const det = hAA * hBB - hAB * hAB;
    const da = (hBB * gA - hAB * gB) / det;
    const db = (hAA * gB - hAB * gA) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < tolerance) break;
  }
  return { a, b: b + Math.log(prior / (1 - prior)) };
}
