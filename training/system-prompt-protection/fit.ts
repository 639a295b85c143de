/** Training for the two kinds of logistic regression the leak model uses. Deterministic. */
import type { SparseVector } from "../../src/guardrails/system-prompt-protection/detector/hashed-ngrams.js";
import { createRng } from "./rng.js";

export interface HashedFit {
  weights: Float64Array;
  bias: number;
}

/**
 * Logistic regression on hashed sparse vectors by AdaGrad SGD, with L2 applied to the weights
 * an example touches. Classes are re-weighted to balance.
 */
export function fitHashed(
  rows: readonly { x: SparseVector; y: 0 | 1 }[],
  bits: number,
  options: { epochs: number; l2: number; rate: number; seed: number },
): HashedFit {
  const size = 1 << bits;
  const w = new Float64Array(size);
  const g2 = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const positives = rows.filter((r) => r.y === 1).length;
  const weightOf = [
    rows.length / (2 * Math.max(1, rows.length - positives)),
    rows.length / (2 * Math.max(1, positives)),
  ];
  const rng = createRng(options.seed);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const { x, y } of rng.shuffle(rows)) {
      let z = bias;
      for (let i = 0; i < x.index.length; i++)
        z += (w[x.index[i] as number] as number) * (x.value[i] as number);
      const err = (1 / (1 + Math.exp(-z)) - y) * (weightOf[y] as number);
      for (let i = 0; i < x.index.length; i++) {
        const j = x.index[i] as number;
        const g = err * (x.value[i] as number) + options.l2 * (w[j] as number);
        g2[j] = (g2[j] as number) + g * g;
        w[j] = (w[j] as number) - (options.rate * g) / Math.sqrt(g2[j] as number);
      }
      biasG2 += err * err;
      bias -= (options.rate * err) / Math.sqrt(biasG2);
    }
  }
  return { weights: w, bias };
}

/** Logistic regression on a few dense features by full-batch gradient descent (the combiner). */
export function fitDense(
  x: readonly number[][],
  y: readonly number[],
  l2: number,
): { weights: number[]; bias: number } {
  const d = x[0]?.length ?? 0;
  const w = new Array<number>(d).fill(0);
  let bias = 0;
  const n = x.length;
  for (let step = 0; step < 4000; step++) {
    const grad = new Array<number>(d).fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const row = x[i] as number[];
      let z = bias;
      for (let j = 0; j < d; j++) z += (w[j] as number) * (row[j] as number);
      const err = 1 / (1 + Math.exp(-z)) - (y[i] as number);
      for (let j = 0; j < d; j++) grad[j] = (grad[j] as number) + err * (row[j] as number);
      gb += err;
    }
    for (let j = 0; j < d; j++)
      w[j] = (w[j] as number) - 2 * ((grad[j] as number) / n + l2 * (w[j] as number));
    bias -= (2 * gb) / n;
  }
  return { weights: w, bias };
}
