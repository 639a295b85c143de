import { sigmoid } from "../../../models/math.js";
import { MODERATION_CATEGORIES, type ModerationCategory } from "./categories.js";
import {
  MODERATION_SIGNALS,
  type ModerationSignal,
  ngramLogit,
  rawScore,
  type ScoringParams,
  type SignalHead,
  type SignalLogits,
} from "./raw-score.js";
import type { ModerationWeights, SignalCalibration } from "./weights.js";

export interface ModerationResult {
  /**
   * How unsafe the response is: each signal's calibrated probability mapped so that its own
   * operating point sits at 0.5 (`atOperatingPoint`), and the larger of the two. At the bundled
   * threshold 0.5 the response is flagged when either signal reaches its operating point.
   */
  readonly unsafeScore: number;
  /** Each signal's calibrated probability: toxic text, and harmful compliance. */
  readonly signalScores: Readonly<Record<ModerationSignal, number>>;
  /**
   * The most likely category should the text be unsafe; the guardrail reports it only when
   * `unsafeScore` reaches the profile's threshold. Null for a text with no words.
   */
  readonly category: ModerationCategory | null;
  /** P(category | unsafe) for every category; sums to 1. */
  readonly categoryScores: Record<ModerationCategory, number>;
}

export interface ModerationModel {
  /** The bundled default threshold on `unsafeScore`: 0.5, every signal at its operating point. */
  readonly threshold: number;
  /** Each signal's calibrated probability from which the bundled threshold flags it. */
  readonly operatingPoints: Readonly<Record<ModerationSignal, number>>;
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

/**
 * A signal's probability `p` on a scale where its operating point `at` is 0.5: linear on each
 * side (0 → 0, at → 0.5, 1 → 1), so the order of scores within a signal is kept and one profile
 * threshold moves both signals together (0.6 asks each for a little more than its operating point).
 * The two signals need their own points: chosen on held-out sources, compliance is flagged from
 * 0.48 and toxic text from 0.62 (models/content-moderation/MODEL_CARD.md); one shared
 * threshold cost compliance most of its recall.
 */
export function atOperatingPoint(p: number, at: number): number {
  return p < at ? (0.5 * p) / at : 0.5 + (0.5 * (p - at)) / (1 - at);
}

/** Calibrates one signal's logits with the Platt scaling of the head(s) that produced them. */
export function calibrate(z: SignalLogits, { ngram, combined }: SignalCalibration): number {
  if (z.embedding !== null && combined)
    return sigmoid(combined[0] * ((z.ngram + z.embedding) / 2) + combined[1]);
  return sigmoid(ngram[0] * z.ngram + ngram[1]);
}

export function scoringParams({ header, tables }: ModerationWeights): ScoringParams {
  const { category, embCategory } = tables;
  if (!category) throw new Error("moderation weights lack the category table");
  const e = header.embedding;
  const head = (s: ModerationSignal): SignalHead => {
    const { bits, bias, embeddingBias } = header.signals[s];
    const weights = tables[s];
    const emb = tables[`emb:${s}`];
    if (!weights) throw new Error(`moderation weights lack the ${s} table`);
    return {
      bits,
      weights,
      bias,
      ...(emb && embeddingBias !== null ? { embedding: { weights: emb, bias: embeddingBias } } : {}),
    };
  };
  return {
    windowWords: header.windowWords,
    signals: { toxic: head("toxic"), compliance: head("compliance") },
    categoryBits: header.categoryBits,
    category,
    categoryBias: header.categoryBias,
    classes: header.categories.length,
    ...(e && embCategory ? { embeddingCategory: { weights: embCategory, bias: e.categoryBias } } : {}),
  };
}

export function createModerationModel(weights: ModerationWeights): ModerationModel {
  const params = scoringParams(weights);
  const { calibration, operatingPoints } = weights.header;
  const logit = (p: number) => Math.log(p / (1 - p));
  // Triage ranks windows by the signal furthest above (or least below) its operating point, each
  // on its own calibrated logit scale.
  const triage = (text: string) =>
    Math.max(
      ...MODERATION_SIGNALS.map((s) => {
        const [a, b] = calibration[s].ngram;
        return a * ngramLogit(params, s, text) + b - logit(operatingPoints[s]);
      }),
    );
  return {
    threshold: weights.header.threshold,
    operatingPoints,
    usesEmbeddings: params.embeddingCategory !== undefined,
    triage: (texts) => Float64Array.from(texts, triage),
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
      const toxic = empty ? 0 : calibrate(raw.signals.toxic, calibration.toxic);
      const compliance = empty ? 0 : calibrate(raw.signals.compliance, calibration.compliance);
      return {
        unsafeScore: Math.max(
          atOperatingPoint(toxic, operatingPoints.toxic),
          atOperatingPoint(compliance, operatingPoints.compliance),
        ),
        signalScores: { toxic, compliance },
        category: empty ? null : category,
        categoryScores,
      };
    },
  };
}
