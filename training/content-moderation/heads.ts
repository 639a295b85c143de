/** Trains the n-gram heads (unsafe-vs-safe and category) on a set of rows. */
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { type Features, featurize } from "../../src/guardrails/content-moderation/model/features.js";
import { meanVector } from "../../src/guardrails/content-moderation/model/linear.js";
import type { ScoringParams } from "../../src/guardrails/content-moderation/model/raw-score.js";
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
import { type Row, SOURCE_WEIGHT } from "./splits.js";

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
    const w = (SOURCE_WEIGHT[r.source] ?? 1) * (r.label === 1 ? o.positiveWeight : 1);
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

export function trainHeads(
  binaryRows: readonly Row[],
  categoryRows: readonly Row[],
  o: HeadOptions,
  vectors?: Vectors,
): ScoringParams {
  const k = MODERATION_CATEGORIES.length;
  const b = trainBinary(binarySamples(binaryRows, o), o.binary);
  const c = trainSoftmax(categorySamples(categoryRows, o), k, logisticOptions(o.category));
  let embedding: ScoringParams["embedding"];
  if (vectors) {
    const eb = trainBinary(binarySamples(binaryRows, o, vectors), o.embedding.binary);
    const ec = trainSoftmax(
      categorySamples(categoryRows, o, vectors),
      k,
      logisticOptions(o.embedding.category),
    );
    embedding = { binary: eb.weights, binaryBias: eb.bias, category: ec.weights, categoryBias: ec.bias };
  }
  return {
    ...(embedding ? { embedding } : {}),
    windowWords: o.windowWords,
    binaryBits: o.binary.bits,
    binary: b.weights,
    binaryBias: b.bias,
    categoryBits: o.category.bits,
    category: c.weights,
    categoryBias: c.bias,
    classes: MODERATION_CATEGORIES.length,
  };
}
