import { featurize, type SparseVector } from "./features/ngrams.js";
import { sentenceWindows } from "./features/windows.js";

/** The n-gram model's best logit over a folded text and its sentence windows. */
export interface NgramMax {
  /** Maximum logit over the text and its windows. */
  z: number;
  /** Where it was: the text itself or one of its windows. */
  worst: string;
  /** The logit of the text itself. */
  own: number;
}

/**
 * Scores folded text with a hashed n-gram logistic model. Training (with out-of-fold weights)
 * and inference both go through this, so the MLP sees the same n-gram inputs in both.
 */
export function createNgramScorer(dim: number, weights: ArrayLike<number>, bias: number) {
  const sparse = sparseLogit(weights, bias);
  /**
   * `seen` holds logits already computed for this text: the engine's windows of a long text share
   * most of their sentence windows with the text's own, and a logit depends on its string alone.
   */
  return (folded: string, seen?: Map<string, number>): NgramMax => {
    const logit = (text: string): number => {
      let z = seen?.get(text);
      if (z === undefined) {
        z = sparse(featurize(text, dim));
        seen?.set(text, z);
      }
      return z;
    };
    const own = logit(folded);
    let [z, worst] = [own, folded];
    for (const window of sentenceWindows(folded)) {
      const s = logit(window);
      if (s > z) [z, worst] = [s, window];
    }
    return { z, worst, own };
  };
}

/** The n-gram model's logit of a folded text alone (no sentence windows): the cheap part of NgramMax. */
export function createNgramLogit(dim: number, weights: ArrayLike<number>, bias: number) {
  const logit = sparseLogit(weights, bias);
  return (folded: string): number => logit(featurize(folded, dim));
}

function sparseLogit(weights: ArrayLike<number>, bias: number) {
  return (x: SparseVector): number => {
    let z = bias;
    for (let k = 0; k < x.index.length; k++)
      z += (weights[x.index[k] as number] as number) * (x.value[k] as number);
    return z;
  };
}
