import type { SparseVector } from "../../src/guardrails/llm/features/ngrams.js";
import { sigmoid } from "../../src/models/math.js";
import { createRng, shuffle } from "./example.js";

export interface TrainItem {
  x: SparseVector;
  y: 0 | 1;
  weight: number;
}

export interface LogisticOptions {
  dim: number;
  epochs: number;
  /** AdaGrad base step. */
  rate: number;
  /** L2 strength per example, applied lazily to the features an example touches. */
  l2: number;
  seed: number;
}

export interface LinearModel {
  weights: Float64Array;
  bias: number;
}

/**
 * Logistic regression by AdaGrad (Duchi et al. 2011) over sparse vectors. Classes are weighted so
 * each carries half the total weight, whatever their counts. Deterministic for a seed: the only
 * randomness is the per-epoch shuffle.
 */
export function trainLogistic(items: TrainItem[], o: LogisticOptions): LinearModel {
  const weights = new Float64Array(o.dim);
  const squares = new Float64Array(o.dim).fill(1e-8);
  let bias = 0;
  let biasSquares = 1e-8;
  const total = [0, 0];
  for (const item of items) total[item.y] = (total[item.y] as number) + item.weight;
  const classWeight = total.map((t) => items.length / 2 / (t || 1));
  const rng = createRng(o.seed);
  const order = items.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffle(order, rng)) {
      const { x, y, weight } = items[i] as TrainItem;
      const z = dot(weights, x) + bias;
      const g = (sigmoid(z) - y) * weight * (classWeight[y] as number);
      for (let k = 0; k < x.index.length; k++) {
        const j = x.index[k] as number;
        const grad = g * (x.value[k] as number) + o.l2 * (weights[j] as number);
        squares[j] = (squares[j] as number) + grad * grad;
        weights[j] = (weights[j] as number) - (o.rate * grad) / Math.sqrt(squares[j] as number);
      }
      biasSquares += g * g;
      bias -= (o.rate * g) / Math.sqrt(biasSquares);
    }
  }
  return { weights, bias };
}

export function dot(weights: ArrayLike<number>, x: SparseVector): number {
  let z = 0;
  for (let k = 0; k < x.index.length; k++)
    z += (weights[x.index[k] as number] as number) * (x.value[k] as number);
  return z;
}

/**
 * Platt scaling (Platt 1999, with his smoothed targets): fits p = σ(a·z + b) to held-out raw
 * scores by Newton's method, so the bundled threshold reads as a probability. Classes are
 * weighted equally and b is then moved to `prior` (the share of attacks the probability assumes),
 * so the score does not depend on how many attacks the calibration split happens to hold.
 */
export function fitPlatt(scores: number[], labels: (0 | 1)[], prior = 0.5): { a: number; b: number } {
  const pos = labels.filter((y) => y === 1).length;
  const neg = labels.length - pos;
  const weight = [labels.length / 2 / (neg || 1), labels.length / 2 / (pos || 1)];
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
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return { a, b: b + Math.log(prior / (1 - prior)) };
}
