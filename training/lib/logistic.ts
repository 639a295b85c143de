/**
 * The training scripts' logistic regressions:
 * - `trainLogistic`: binary, over sparse (hashed) features, by AdaGrad SGD (Duchi et al. 2011),
 *   with L2 applied lazily to the weights an example touches. The n-gram heads of `llm`,
 *   `content_moderation` and `system_prompt_protection`, and the embedding head of the latter.
 * - `trainSoftmax`: the multinomial form of the same, for `content_moderation`'s category heads.
 * - `fitDenseLogistic`: a handful of dense features by full-batch gradient descent (the
 *   `system_prompt_protection` combiners): a different algorithm on purpose, deterministic without
 *   a shuffle and stable on a few hundred rows of 2–10 correlated features.
 * All are deterministic for a seed: the only randomness is the seeded shuffle.
 */
import { sigmoid } from "../../src/models/math.js";
import { mulberry32, shuffle } from "./random.js";

/** A sparse vector; indices are masked to the model's size (hashed features may be any 32 bits). */
export interface SparseRow {
  readonly index: ArrayLike<number>;
  readonly value: ArrayLike<number>;
}

export interface LogisticItem {
  readonly x: SparseRow;
  readonly y: 0 | 1;
  readonly weight: number;
}

/**
 * Incidental differences between the three trainers this function replaced, none better than the
 * other: the first three move the last bits of the weights, the fourth gives another (as random)
 * order of updates. They are kept so that every shipped model rebuilds byte for byte; a retrain
 * may settle on the defaults (the `llm` trainer's) and drop them.
 */
export interface Arithmetic {
  /** Weight each class to half the total item weight (true), or use the item weights alone. */
  readonly balanceClasses: boolean;
  /** Where AdaGrad's 1e-8 goes: into the squared-gradient sums, or onto their square root. */
  readonly epsilon: "in-sum" | "after-root";
  /** The logit summed as Σ w·x + b ("last") or b + Σ w·x ("first"). */
  readonly bias: "last" | "first";
  /** Each epoch shuffles the previous epoch's order ("continue") or the original order ("restart"). */
  readonly shuffle: "continue" | "restart";
}

export interface LogisticOptions {
  /** Number of weights: a power of two. */
  readonly dim: number;
  readonly epochs: number;
  /** AdaGrad base step. */
  readonly rate: number;
  /** L2 strength per example, applied to the features it touches. */
  readonly l2: number;
  readonly seed: number;
  readonly arithmetic?: Partial<Arithmetic>;
}

export interface LinearModel {
  weights: Float64Array;
  bias: number;
}

const EPSILON = 1e-8;
const DEFAULT_ARITHMETIC: Arithmetic = {
  balanceClasses: true,
  epsilon: "in-sum",
  bias: "last",
  shuffle: "continue",
};

export function trainLogistic(items: readonly LogisticItem[], o: LogisticOptions): LinearModel {
  const a = { ...DEFAULT_ARITHMETIC, ...o.arithmetic };
  const mask = o.dim - 1;
  const inSum = a.epsilon === "in-sum" ? EPSILON : 0;
  // x + 0 === x, so the unused end of each choice leaves the arithmetic exactly as it was.
  const afterRoot = a.epsilon === "after-root" ? EPSILON : 0;
  const biasFirst = a.bias === "first";
  const weights = new Float64Array(o.dim);
  const squares = new Float64Array(o.dim).fill(inSum);
  let bias = 0;
  let biasSquares = inSum;
  const classWeight = a.balanceClasses ? balancedClassWeights(items) : [1, 1];
  const random = mulberry32(o.seed);
  const order = items.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    if (a.shuffle === "restart") for (let i = 0; i < order.length; i++) order[i] = i;
    for (const i of shuffle(order, random)) {
      const { x, y, weight } = items[i] as LogisticItem;
      let z = biasFirst ? bias : 0;
      for (let k = 0; k < x.index.length; k++)
        z += (weights[(x.index[k] as number) & mask] as number) * (x.value[k] as number);
      if (!biasFirst) z += bias;
      const g = (sigmoid(z) - y) * weight * (classWeight[y] as number);
      for (let k = 0; k < x.index.length; k++) {
        const j = (x.index[k] as number) & mask;
        const grad = g * (x.value[k] as number) + o.l2 * (weights[j] as number);
        squares[j] = (squares[j] as number) + grad * grad;
        weights[j] = (weights[j] as number) - (o.rate * grad) / (Math.sqrt(squares[j] as number) + afterRoot);
      }
      biasSquares += g * g;
      bias -= (o.rate * g) / (Math.sqrt(biasSquares) + afterRoot);
    }
  }
  return { weights, bias };
}

/** Class weights that give each class half the total item weight, whatever their counts. */
function balancedClassWeights(items: readonly LogisticItem[]): number[] {
  const total = [0, 0];
  for (const item of items) total[item.y] = (total[item.y] as number) + item.weight;
  return total.map((t) => items.length / 2 / (t || 1));
}

/** Σ w·x over a sparse vector (no bias). */
export function dot(weights: ArrayLike<number>, x: SparseRow): number {
  let z = 0;
  for (let k = 0; k < x.index.length; k++)
    z += (weights[x.index[k] as number] as number) * (x.value[k] as number);
  return z;
}

export interface SoftmaxItem {
  readonly x: SparseRow;
  /** The class index. */
  readonly y: number;
  readonly weight: number;
}

/**
 * Multinomial logistic regression over sparse features, by AdaGrad with 1e-8 after the root and
 * L2 on the touched rows. Weights are row-major: feature row r, class c at r·classes + c.
 */
export function trainSoftmax(
  items: readonly SoftmaxItem[],
  classes: number,
  o: Omit<LogisticOptions, "arithmetic">,
): { weights: Float64Array; bias: Float64Array } {
  const mask = o.dim - 1;
  const w = new Float64Array(o.dim * classes);
  const g2 = new Float64Array(o.dim * classes);
  const bias = new Float64Array(classes);
  const biasG2 = new Float64Array(classes);
  const z = new Float64Array(classes);
  const order = items.map((_, i) => i);
  const random = mulberry32(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffle(order, random)) {
      const { x, y, weight } = items[i] as SoftmaxItem;
      z.set(bias);
      for (let k = 0; k < x.index.length; k++) {
        const row = ((x.index[k] as number) & mask) * classes;
        const v = x.value[k] as number;
        for (let c = 0; c < classes; c++) z[c] = (z[c] as number) + (w[row + c] as number) * v;
      }
      let max = Number.NEGATIVE_INFINITY;
      for (const v of z) max = Math.max(max, v);
      let sum = 0;
      for (let c = 0; c < classes; c++) {
        z[c] = Math.exp((z[c] as number) - max);
        sum += z[c] as number;
      }
      // z now holds the error signal p_c − [c = y], scaled by the item weight.
      for (let c = 0; c < classes; c++) z[c] = ((z[c] as number) / sum - (c === y ? 1 : 0)) * weight;
      for (let k = 0; k < x.index.length; k++) {
        const row = ((x.index[k] as number) & mask) * classes;
        const v = x.value[k] as number;
        for (let c = 0; c < classes; c++) {
          const r = row + c;
          const g = (z[c] as number) * v + o.l2 * (w[r] as number);
          g2[r] = (g2[r] as number) + g * g;
          w[r] = (w[r] as number) - (o.rate * g) / (Math.sqrt(g2[r] as number) + EPSILON);
        }
      }
      for (let c = 0; c < classes; c++) {
        const e = z[c] as number;
        biasG2[c] = (biasG2[c] as number) + e * e;
        bias[c] = (bias[c] as number) - (o.rate * e) / (Math.sqrt(biasG2[c] as number) + EPSILON);
      }
    }
  }
  return { weights: w, bias };
}

/** Logistic regression on a few dense features: 4,000 full-batch gradient steps of size 2. */
export function fitDenseLogistic(
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
      const err = sigmoid(z) - (y[i] as number);
      for (let j = 0; j < d; j++) grad[j] = (grad[j] as number) + err * (row[j] as number);
      gb += err;
    }
    for (let j = 0; j < d; j++)
      w[j] = (w[j] as number) - 2 * ((grad[j] as number) / n + l2 * (w[j] as number));
    bias -= (2 * gb) / n;
  }
  return { weights: w, bias };
}
