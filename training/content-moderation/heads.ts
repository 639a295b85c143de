/** Trains the n-gram heads (unsafe-vs-safe and category) on a set of rows. */
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { type Features, featurize } from "../../src/guardrails/content-moderation/model/features.js";
import { meanVector } from "../../src/guardrails/content-moderation/model/linear.js";
import type { ScoringParams } from "../../src/guardrails/content-moderation/model/raw-score.js";
import { splitUnits } from "../../src/guardrails/content-moderation/model/windows.js";
import type { Vectors } from "./embed-cache.js";
import { denseFeatures, type Sample, type TrainOptions, trainBinary, trainMultinomial } from "./logreg.js";
import { type Row, SOURCE_WEIGHT } from "./splits.js";

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

export function binarySamples(rows: readonly Row[], o: HeadOptions, vectors?: Vectors): Sample[] {
  const samples: Sample[] = [];
  for (const r of rows) {
    const w = (SOURCE_WEIGHT[r.source] ?? 1) * (r.label === 1 ? o.positiveWeight : 1);
    const u = units(r.text, o, vectors);
    if (!u) continue;
    const { whole, windows } = u;
    samples.push({ f: whole, y: r.label ?? 0, w });
    // Inference keeps the most unsafe window, so the windows of a safe response must stay safe
    // too. (A compliant response's windows are not all unsafe: its preamble is often a refusal.)
    if (r.label === 0) for (const f of windows) samples.push({ f, y: 0, w: w / Math.max(1, windows.length) });
  }
  return samples;
}

export function categorySamples(rows: readonly Row[], o: HeadOptions, vectors?: Vectors): Sample[] {
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
    return u ? [{ f: u.whole, y, w: Math.sqrt(mean / (counts.get(y) ?? 1)) }] : [];
  });
}

export function trainHeads(
  binaryRows: readonly Row[],
  categoryRows: readonly Row[],
  o: HeadOptions,
  vectors?: Vectors,
): ScoringParams {
  const k = MODERATION_CATEGORIES.length;
  const b = trainBinary(binarySamples(binaryRows, o), o.binary);
  const c = trainMultinomial(categorySamples(categoryRows, o), k, o.category);
  let embedding: ScoringParams["embedding"];
  if (vectors) {
    const eb = trainBinary(binarySamples(binaryRows, o, vectors), o.embedding.binary);
    const ec = trainMultinomial(categorySamples(categoryRows, o, vectors), k, o.embedding.category);
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
