import { softmaxInPlace } from "../../../models/math.js";
import { type Features, featurize, words } from "./features.js";
import { denseClasses, denseDot, dot, dotClasses, meanVector } from "./linear.js";
import { splitUnits } from "./windows.js";

/**
 * The two unsafe signals, each a head of its own trained on its own data: toxic text people write
 * (hate, harassment, sexual, violent, self-harm) and harmful compliance (the response carries out
 * a harmful request). Safe text is a negative for both.
 */
export const MODERATION_SIGNALS = ["toxic", "compliance"] as const;
export type ModerationSignal = (typeof MODERATION_SIGNALS)[number];

/** One signal's logistic head: hashed n-gram weights, and optionally a USE-lite vector head. */
export interface SignalHead {
  readonly bits: number;
  readonly weights: ArrayLike<number>;
  readonly bias: number;
  readonly embedding?: { readonly weights: ArrayLike<number>; readonly bias: number };
}

/** Everything scoring needs, as float tables: the shipped weights or the trainer's live ones. */
export interface ScoringParams {
  readonly windowWords: number;
  readonly signals: Readonly<Record<ModerationSignal, SignalHead>>;
  readonly categoryBits: number;
  readonly category: ArrayLike<number>;
  readonly categoryBias: ArrayLike<number>;
  readonly classes: number;
  readonly embeddingCategory?: { readonly weights: ArrayLike<number>; readonly bias: ArrayLike<number> };
}

/** One signal's n-gram logit of one text alone: cheap, for choosing which windows to embed. */
export function ngramLogit(p: ScoringParams, signal: ModerationSignal, text: string): number {
  const h = p.signals[signal];
  return h.bias + dot(featurize(words(text)), h.weights, (1 << h.bits) - 1);
}

/** One signal's uncalibrated logits: the n-gram head's, and the USE-lite head's when embedded. */
export interface SignalLogits {
  readonly ngram: number;
  readonly embedding: number | null;
}

/** Uncalibrated logits per signal and P(category | unsafe), before Platt scaling. */
export interface RawScore {
  readonly signals: Readonly<Record<ModerationSignal, SignalLogits>>;
  readonly categoryProbs: Float64Array;
}

/** Per signal the most unsafe unit's logit; `best` is the unit where either signal peaks highest. */
function maxOver<U>(units: readonly U[], logit: (u: U, s: ModerationSignal) => number) {
  const top = { toxic: Number.NEGATIVE_INFINITY, compliance: Number.NEGATIVE_INFINITY };
  let best = units[0] as U;
  let bestZ = Number.NEGATIVE_INFINITY;
  for (const u of units) {
    for (const s of MODERATION_SIGNALS) {
      const z = logit(u, s);
      if (z > top[s]) top[s] = z;
      if (z > bestZ) {
        bestZ = z;
        best = u;
      }
    }
  }
  return { top, best };
}

/**
 * Scores the whole text and each sentence window with both signals and keeps, per signal, the
 * most unsafe unit (max): the category comes from the unit where a signal peaks highest, so a
 * harmful paragraph in a long answer names its own category. Embeddings, when given, are the
 * encoder's vectors for its own windows of the text.
 */
export function rawScore(
  p: ScoringParams,
  text: string,
  embeddings?: readonly ArrayLike<number>[],
): RawScore {
  const { whole, windows } = splitUnits(text, p.windowWords);
  return scoreUnits(p, [featurize(whole), ...windows.map(featurize)], embeddings);
}

/** `rawScore` of a text's units already featurised: the whole text first, then its windows. */
export function scoreUnits(
  p: ScoringParams,
  features: readonly Features[],
  embeddings?: readonly ArrayLike<number>[],
): RawScore {
  const ngram = maxOver(features, (f, s) => {
    const h = p.signals[s];
    return h.bias + dot(f, h.weights, (1 << h.bits) - 1);
  });
  const categoryProbs = softmaxInPlace(
    dotClasses(
      ngram.best,
      p.category,
      (1 << p.categoryBits) - 1,
      p.categoryBias,
      new Float64Array(p.classes),
    ),
  );
  const e = p.embeddingCategory;
  const t = p.signals.toxic.embedding;
  const c = p.signals.compliance.embedding;
  // The signals' encoder heads do not need the category's: leave-one-source-out fits train none.
  if (!t || !c || !embeddings || embeddings.length === 0) {
    return {
      signals: {
        toxic: { ngram: ngram.top.toxic, embedding: null },
        compliance: { ngram: ngram.top.compliance, embedding: null },
      },
      categoryProbs,
    };
  }
  const units = embeddings.length > 1 ? [meanVector(embeddings), ...embeddings] : embeddings;
  const heads = { toxic: t, compliance: c };
  const dense = maxOver(units, (v, s) => heads[s].bias + denseDot(v, heads[s].weights));
  if (e) {
    const embProbs = softmaxInPlace(denseClasses(dense.best, e.weights, e.bias, new Float64Array(p.classes)));
    for (let k = 0; k < p.classes; k++) {
      categoryProbs[k] = ((categoryProbs[k] as number) + (embProbs[k] as number)) / 2;
    }
  }
  return {
    signals: {
      toxic: { ngram: ngram.top.toxic, embedding: dense.top.toxic },
      compliance: { ngram: ngram.top.compliance, embedding: dense.top.compliance },
    },
    categoryProbs,
  };
}
