import { softmaxInPlace } from "../../../models/math.js";
import { type Features, featurize, words } from "./features.js";
import { denseClasses, denseDot, dot, dotClasses, meanVector } from "./linear.js";
import { splitUnits } from "./windows.js";

/** Everything scoring needs, as float tables: the shipped weights or the trainer's live ones. */
export interface ScoringParams {
  readonly windowWords: number;
  readonly binaryBits: number;
  readonly binary: ArrayLike<number>;
  readonly binaryBias: number;
  readonly categoryBits: number;
  readonly category: ArrayLike<number>;
  readonly categoryBias: ArrayLike<number>;
  readonly classes: number;
  readonly embedding?: {
    readonly binary: ArrayLike<number>;
    readonly binaryBias: number;
    readonly category: ArrayLike<number>;
    readonly categoryBias: ArrayLike<number>;
  };
}

/** The n-gram head's unsafe logit of one text alone: cheap, for choosing which windows to embed. */
export function ngramLogit(p: ScoringParams, text: string): number {
  return p.binaryBias + dot(featurize(words(text)), p.binary, (1 << p.binaryBits) - 1);
}

/** Uncalibrated logits and P(category | unsafe), before Platt scaling. */
export interface RawScore {
  readonly ngram: number;
  readonly embedding: number | null;
  readonly categoryProbs: Float64Array;
}

/**
 * Scores the whole text and each sentence window, and keeps the most unsafe one (max): the
 * category comes from that same unit, so a harmful paragraph in a long answer names its own
 * category. Embeddings, when given, are the encoder's vectors for its own windows of the text.
 */
export function rawScore(
  p: ScoringParams,
  text: string,
  embeddings?: readonly ArrayLike<number>[],
): RawScore {
  const { whole, windows } = splitUnits(text, p.windowWords);
  const binaryMask = (1 << p.binaryBits) - 1;
  let best: Features = featurize(whole);
  let ngram = p.binaryBias + dot(best, p.binary, binaryMask);
  for (const w of windows) {
    const f = featurize(w);
    const z = p.binaryBias + dot(f, p.binary, binaryMask);
    if (z > ngram) {
      ngram = z;
      best = f;
    }
  }
  const categoryProbs = softmaxInPlace(
    dotClasses(best, p.category, (1 << p.categoryBits) - 1, p.categoryBias, new Float64Array(p.classes)),
  );
  const e = p.embedding;
  if (!e || !embeddings || embeddings.length === 0) return { ngram, embedding: null, categoryProbs };

  const units = embeddings.length > 1 ? [meanVector(embeddings), ...embeddings] : embeddings;
  let bestVector = units[0] as ArrayLike<number>;
  let embedding = Number.NEGATIVE_INFINITY;
  for (const v of units) {
    const z = e.binaryBias + denseDot(v, e.binary);
    if (z > embedding) {
      embedding = z;
      bestVector = v;
    }
  }
  const embProbs = softmaxInPlace(
    denseClasses(bestVector, e.category, e.categoryBias, new Float64Array(p.classes)),
  );
  for (let c = 0; c < p.classes; c++) {
    categoryProbs[c] = ((categoryProbs[c] as number) + (embProbs[c] as number)) / 2;
  }
  return { ngram, embedding, categoryProbs };
}
