import { sigmoid } from "../../../models/math.js";
import { MODERATION_CATEGORIES, type ModerationCategory } from "./categories.js";
import { ngramLogit, type RawScore, rawScore, type ScoringParams } from "./raw-score.js";
import type { ModerationWeights, Platt } from "./weights.js";

export interface ModerationResult {
  /** Calibrated probability that the response is unsafe (complies with harm, or is toxic). */
  readonly unsafeScore: number;
  /**
   * The most likely category should the text be unsafe; the guardrail reports it only when
   * `unsafeScore` reaches the profile's threshold. Null for a text with no words.
   */
  readonly category: ModerationCategory | null;
  /** P(category | unsafe) for every category; sums to 1. */
  readonly categoryScores: Record<ModerationCategory, number>;
}

export interface ModerationModel {
  /** The bundled default threshold, chosen by a sweep on held-out training data. */
  readonly threshold: number;
  /** True when the weights include a USE-lite head, so `embeddings` are worth computing. */
  readonly usesEmbeddings: boolean;
  /**
   * `embeddings`: optional USE-lite vectors, one per window of `text` (splitIntoWindows with the
   * encoder's token counter). With them the n-gram and embedding heads are averaged.
   */
  classify(text: string, embeddings?: readonly Float32Array[]): ModerationResult;
  /** How unsafe each text looks to the n-gram head alone, as a logit (see Detector.triage). */
  triage(texts: readonly string[]): Float64Array;
}

/** Calibrates a raw score with the head(s) that produced it. */
export function calibrate(raw: RawScore, ngram: Platt, combined: Platt | null): number {
  if (raw.embedding !== null && combined)
    return sigmoid(combined[0] * ((raw.ngram + raw.embedding) / 2) + combined[1]);
  return sigmoid(ngram[0] * raw.ngram + ngram[1]);
}

export function scoringParams({ header, tables }: ModerationWeights): ScoringParams {
  const { binary, category, embBinary, embCategory } = tables;
  if (!binary || !category) throw new Error("moderation weights lack the n-gram tables");
  const e = header.embedding;
  return {
    windowWords: header.windowWords,
    binaryBits: header.binaryBits,
    binary,
    binaryBias: header.binaryBias,
    categoryBits: header.categoryBits,
    category,
    categoryBias: header.categoryBias,
    classes: header.categories.length,
    ...(e && embBinary && embCategory
      ? {
          embedding: {
            binary: embBinary,
            binaryBias: e.binaryBias,
            category: embCategory,
            categoryBias: e.categoryBias,
          },
        }
      : {}),
  };
}

export function createModerationModel(weights: ModerationWeights): ModerationModel {
  const params = scoringParams(weights);
  const { ngram, combined } = weights.header.calibration;
  return {
    threshold: weights.header.threshold,
    usesEmbeddings: params.embedding !== undefined,
    triage: (texts) => Float64Array.from(texts, (text) => ngramLogit(params, text)),
    classify(text, embeddings) {
      const raw = rawScore(params, text, embeddings);
      const categoryScores = {} as Record<ModerationCategory, number>;
      let category: ModerationCategory | null = null;
      let top = -1;
      MODERATION_CATEGORIES.forEach((name, c) => {
        const p = raw.categoryProbs[c] as number;
        categoryScores[name] = p;
        if (p > top) {
          top = p;
          category = name;
        }
      });
      const empty = !/[\p{L}\p{N}]/u.test(text);
      return {
        unsafeScore: empty ? 0 : calibrate(raw, ngram, combined),
        category: empty ? null : category,
        categoryScores,
      };
    },
  };
}
