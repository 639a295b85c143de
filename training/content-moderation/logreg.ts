/**
 * Logistic regression (binary and multinomial) over hashed sparse features, trained by AdaGrad
 * with L2 regularisation applied lazily to the weights an example touches. Deterministic: the
 * only randomness is the seeded shuffle order.
 */
import type { Features } from "../../src/guardrails/content-moderation/model/features.js";
import { rng, shuffle } from "./read.js";

export interface Sample {
  readonly f: Features;
  /** 0/1 for the binary head; the class index for the multinomial one. */
  readonly y: number;
  /** Per-sample weight: balances sources and classes. */
  readonly w: number;
}

export interface TrainOptions {
  readonly bits: number;
  readonly epochs: number;
  readonly lr: number;
  readonly l2: number;
  readonly seed: number;
}

const EPS = 1e-8;

export function trainBinary(
  samples: readonly Sample[],
  o: TrainOptions,
): { weights: Float64Array; bias: number } {
  const dim = 1 << o.bits;
  const mask = dim - 1;
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim);
  let bias = 0;
  let biasG2 = 0;
  const order = samples.map((_, i) => i);
  const random = rng(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffle(order, random)) {
      const { f, y, w: sw } = samples[i] as Sample;
      let z = bias;
      for (let k = 0; k < f.hashes.length; k++)
        z += (w[(f.hashes[k] as number) & mask] as number) * (f.values[k] as number);
      const err = (1 / (1 + Math.exp(-z)) - y) * sw;
      for (let k = 0; k < f.hashes.length; k++) {
        const r = (f.hashes[k] as number) & mask;
        const g = err * (f.values[k] as number) + o.l2 * (w[r] as number);
        g2[r] = (g2[r] as number) + g * g;
        w[r] = (w[r] as number) - (o.lr * g) / (Math.sqrt(g2[r] as number) + EPS);
      }
      biasG2 += err * err;
      bias -= (o.lr * err) / (Math.sqrt(biasG2) + EPS);
    }
  }
  return { weights: w, bias };
}

export function trainMultinomial(
  samples: readonly Sample[],
  classes: number,
  o: TrainOptions,
): { weights: Float64Array; bias: Float64Array } {
  const dim = 1 << o.bits;
  const mask = dim - 1;
  const w = new Float64Array(dim * classes);
  const g2 = new Float64Array(dim * classes);
  const bias = new Float64Array(classes);
  const biasG2 = new Float64Array(classes);
  const z = new Float64Array(classes);
  const order = samples.map((_, i) => i);
  const random = rng(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffle(order, random)) {
      const { f, y, w: sw } = samples[i] as Sample;
      z.set(bias);
      for (let k = 0; k < f.hashes.length; k++) {
        const row = ((f.hashes[k] as number) & mask) * classes;
        const v = f.values[k] as number;
        for (let c = 0; c < classes; c++) z[c] = (z[c] as number) + (w[row + c] as number) * v;
      }
      let max = Number.NEGATIVE_INFINITY;
      for (const v of z) max = Math.max(max, v);
      let sum = 0;
      for (let c = 0; c < classes; c++) {
        z[c] = Math.exp((z[c] as number) - max);
        sum += z[c] as number;
      }
      // z now holds the error signal p_c − [c = y], scaled by the sample weight.
      for (let c = 0; c < classes; c++) z[c] = ((z[c] as number) / sum - (c === y ? 1 : 0)) * sw;
      for (let k = 0; k < f.hashes.length; k++) {
        const row = ((f.hashes[k] as number) & mask) * classes;
        const v = f.values[k] as number;
        for (let c = 0; c < classes; c++) {
          const r = row + c;
          const g = (z[c] as number) * v + o.l2 * (w[r] as number);
          g2[r] = (g2[r] as number) + g * g;
          w[r] = (w[r] as number) - (o.lr * g) / (Math.sqrt(g2[r] as number) + EPS);
        }
      }
      for (let c = 0; c < classes; c++) {
        const e = z[c] as number;
        biasG2[c] = (biasG2[c] as number) + e * e;
        bias[c] = (bias[c] as number) - (o.lr * e) / (Math.sqrt(biasG2[c] as number) + EPS);
      }
    }
  }
  return { weights: w, bias };
}

/** A dense vector (an embedding) as sparse features over rows 0…dim−1, for the same trainers. */
export function denseFeatures(v: ArrayLike<number>): Features {
  const hashes = new Uint32Array(v.length);
  for (let i = 0; i < v.length; i++) hashes[i] = i;
  return { hashes, values: Float32Array.from(v) };
}
