import { sigmoid } from "../../../models/math.js";
import { featurize, ngramTokens, type SparseVector, windows } from "./hashed-ngrams.js";

/** Logistic regression over hashed n-grams (the weight table is indexed by hash & (2^bits − 1)). */
export interface HashedModel {
  readonly bits: number;
  readonly bias: number;
  readonly weights: Float32Array;
}

/** Logistic regression over named parts: the combiner. */
export interface PartsModel {
  readonly features: readonly string[];
  readonly weights: readonly number[];
  readonly bias: number;
}

export function sparseLogit(model: HashedModel, v: SparseVector): number {
  let z = model.bias;
  for (let i = 0; i < v.index.length; i++)
    z += (model.weights[v.index[i] as number] as number) * (v.value[i] as number);
  return z;
}

/** Probabilities for the whole text and for its most suspicious window (the whole text if short). */
export function textScores(model: HashedModel, text: string): { whole: number; window: number } {
  const tokens = ngramTokens(text);
  const whole = sigmoid(sparseLogit(model, featurize(tokens, model.bits)));
  let window = whole;
  for (const w of windows(tokens))
    window = Math.max(window, sigmoid(sparseLogit(model, featurize(w, model.bits))));
  return { whole, window };
}

/** A missing part counts as 0, so a combiner never reads `undefined`. */
export function partsProbability(model: PartsModel, parts: Readonly<Record<string, number>>): number {
  let z = model.bias;
  model.features.forEach((name, i) => {
    z += (model.weights[i] as number) * (parts[name] ?? 0);
  });
  return sigmoid(z);
}
