/**
 * Trains the heads on a set of rows: one unsafe-vs-safe head per signal (toxic text, harmful
 * compliance), each on its own positives against every safe row, and the category head.
 */
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { type Features, featurize } from "../../src/guardrails/content-moderation/model/features.js";
import { meanVector } from "../../src/guardrails/content-moderation/model/linear.js";
import {
  MODERATION_SIGNALS,
  type ModerationSignal,
  type RawScore,
  type ScoringParams,
  type SignalHead,
  scoreUnits,
} from "../../src/guardrails/content-moderation/model/raw-score.js";
import { splitUnits } from "../../src/guardrails/content-moderation/model/windows.js";
import {
  type Arithmetic,
  type LogisticItem,
  type SoftmaxItem,
  type SparseRow,
  trainLogistic,
  trainSoftmax,
} from "../lib/logistic.js";
import type { Vectors } from "./embed-cache.js";
import { type Row, rowWeight } from "./splits.js";

export interface TrainOptions {
  /** log2 of the table's rows: hashed features are masked to it. */
  readonly bits: number;
  readonly epochs: number;
  readonly lr: number;
  readonly l2: number;
  readonly seed: number;
}

/** This model's AdaGrad arithmetic (lib/logistic.ts): unweighted classes, ε after the root. */
const ARITHMETIC: Arithmetic = {
  balanceClasses: false,
  epsilon: "after-root",
  bias: "first",
  shuffle: "continue",
};

const logisticOptions = (o: TrainOptions) => ({
  dim: 1 << o.bits,
  epochs: o.epochs,
  rate: o.lr,
  l2: o.l2,
  seed: o.seed,
});

const sparse = (f: Features): SparseRow => ({ index: f.hashes, value: f.values });

/** A dense vector (an embedding) as sparse features over rows 0…dim−1, for the same trainers. */
function denseFeatures(v: ArrayLike<number>): Features {
  const hashes = new Uint32Array(v.length);
  for (let i = 0; i < v.length; i++) hashes[i] = i;
  return { hashes, values: Float32Array.from(v) };
}

export interface HeadOptions {
  /** Each signal's n-gram head. */
  readonly binary: TrainOptions;
  readonly category: TrainOptions;
  /** Options for the USE-lite heads (bits = log2 of the vector length). */
  readonly embedding: { readonly binary: TrainOptions; readonly category: TrainOptions };
  readonly windowWords: number;
  /** Weight of a compliant (label 1) response relative to a safe one. */
  readonly positiveWeight: number;
}

// Featurising is the slow part and the same for every fold: do it once per text.
const cache = new Map<string, { whole: Features; windows: Features[] }>();

export function unitFeatures(text: string, windowWords: number): { whole: Features; windows: Features[] } {
  let f = cache.get(text);
  if (!f) {
    const units = splitUnits(text, windowWords);
    f = { whole: featurize(units.whole), windows: units.windows.map(featurize) };
    cache.set(text, f);
  }
  return f;
}

/** `rawScore` through the featurising cache: the same arithmetic, each text featurised once. */
export function cachedRawScore(p: ScoringParams, text: string, vectors?: Vectors): RawScore {
  const { whole, windows } = unitFeatures(text, p.windowWords);
  return scoreUnits(p, [whole, ...windows], vectors?.get(text));
}

/** The units of a text: n-gram features, or (with `vectors`) the mean and window embeddings. */
function units(
  text: string,
  o: HeadOptions,
  vectors?: Vectors,
): { whole: Features; windows: Features[] } | null {
  if (!vectors) return unitFeatures(text, o.windowWords);
  const v = vectors.get(text) ?? [];
  if (v.length === 0) return null;
  return { whole: denseFeatures(meanVector(v)), windows: v.length > 1 ? v.map(denseFeatures) : [] };
}

export function binarySamples(rows: readonly Row[], o: HeadOptions, vectors?: Vectors): LogisticItem[] {
  const samples: LogisticItem[] = [];
  for (const r of rows) {
    const w = rowWeight(r) * (r.label === 1 ? o.positiveWeight : 1);
    const u = units(r.text, o, vectors);
    if (!u) continue;
    const { whole, windows } = u;
    samples.push({ x: sparse(whole), y: r.label ?? 0, weight: w });
    // Inference keeps the most unsafe window, so the windows of a safe response must stay safe
    // too. (A compliant response's windows are not all unsafe: its preamble is often a refusal.)
    if (r.label === 0)
      for (const f of windows) samples.push({ x: sparse(f), y: 0, weight: w / Math.max(1, windows.length) });
  }
  return samples;
}

export function categorySamples(rows: readonly Row[], o: HeadOptions, vectors?: Vectors): SoftmaxItem[] {
  const counts = new Map<number, number>();
  const ys = rows.map((r) =>
    MODERATION_CATEGORIES.indexOf(r.category as (typeof MODERATION_CATEGORIES)[number]),
  );
  for (const y of ys) counts.set(y, (counts.get(y) ?? 0) + 1);
  const mean = rows.length / Math.max(1, counts.size);
  // Square-root class balancing: rare categories count more, without a handful of rows dominating.
  return rows.flatMap((r, i) => {
    const y = ys[i] as number;
    const u = units(r.text, o, vectors);
    return u ? [{ x: sparse(u.whole), y, weight: Math.sqrt(mean / (counts.get(y) ?? 1)) }] : [];
  });
}

const trainBinary = (items: LogisticItem[], o: TrainOptions) =>
  trainLogistic(items, { ...logisticOptions(o), arithmetic: ARITHMETIC });

/** A signal's rows: its own positives and every safe row (the other signal's positives are left out). */
export const signalRows = (rows: readonly Row[], s: ModerationSignal): Row[] =>
  rows.filter((r) => r.label === 0 || (r.label === 1 && r.signal === s));

/** Both signals' heads; with `vectors`, each with its USE-lite head too. */
export function trainSignalHeads(
  binaryRows: readonly Row[],
  o: HeadOptions,
  vectors?: Vectors,
): Record<ModerationSignal, SignalHead> {
  const head = (s: ModerationSignal): SignalHead => {
    const rows = signalRows(binaryRows, s);
    const b = trainBinary(binarySamples(rows, o), o.binary);
    if (!vectors) return { bits: o.binary.bits, weights: b.weights, bias: b.bias };
    const e = trainBinary(binarySamples(rows, o, vectors), o.embedding.binary);
    return {
      bits: o.binary.bits,
      weights: b.weights,
      bias: b.bias,
      embedding: { weights: e.weights, bias: e.bias },
    };
  };
  const [toxic, compliance] = MODERATION_SIGNALS.map(head) as [SignalHead, SignalHead];
  return { toxic, compliance };
}

/** An empty category head, for runs that measure the unsafe verdict alone (LOSO, out-of-fold). */
function noCategories(): Pick<ScoringParams, "categoryBits" | "category" | "categoryBias" | "classes"> {
  const k = MODERATION_CATEGORIES.length;
  return { categoryBits: 0, category: new Float32Array(k), categoryBias: new Float32Array(k), classes: k };
}

/** Every head: the two signals' and (unless `categoryRows` is null) the category head. */
export function trainHeads(
  binaryRows: readonly Row[],
  categoryRows: readonly Row[] | null,
  o: HeadOptions,
  vectors?: Vectors,
): ScoringParams {
  const signals = trainSignalHeads(binaryRows, o, vectors);
  if (!categoryRows) return { windowWords: o.windowWords, signals, ...noCategories() };
  const k = MODERATION_CATEGORIES.length;
  const c = trainSoftmax(categorySamples(categoryRows, o), k, logisticOptions(o.category));
  const ec = vectors
    ? trainSoftmax(categorySamples(categoryRows, o, vectors), k, logisticOptions(o.embedding.category))
    : undefined;
  return {
    windowWords: o.windowWords,
    signals,
    categoryBits: o.category.bits,
    category: c.weights,
    categoryBias: c.bias,
    classes: k,
    ...(ec ? { embeddingCategory: { weights: ec.weights, bias: ec.bias } } : {}),
  };
}
