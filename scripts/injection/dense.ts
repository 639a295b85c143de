import type { SparseVector } from "../../src/guardrails/llm/features/ngrams.js";
import type { Embedded } from "./embed.js";
import { createRng, shuffle } from "./example.js";
import { dot, type LinearModel, type TrainItem } from "./logistic.js";

const NEGATIVE_WINDOWS = 8;
const WINDOW_WEIGHT = 0.5;

/** A dense vector as a SparseVector over all its dimensions, so the same trainer fits it. */
export function asSparse(v: Float32Array): SparseVector {
  return { index: Int32Array.from(v.keys()), value: v };
}

/** Max logit over an example's encoder windows (a zero vector scores the bias). */
export function maxDenseLogit(e: Embedded, model: LinearModel): number {
  let z = Number.NEGATIVE_INFINITY;
  for (const v of e.vectors) z = Math.max(z, dot(model.weights, asSparse(v)) + model.bias);
  return Number.isFinite(z) ? z : model.bias;
}

/** Training items over embeddings, by the same rules as the n-gram items (see items.ts). */
export function denseItems(
  list: { label: 0 | 1; e: Embedded }[],
  seed: number,
  model?: LinearModel,
): TrainItem[] {
  const rng = createRng(seed);
  const items: TrainItem[] = [];
  for (const { label, e } of list) {
    if (e.vectors.length === 0) continue;
    const xs = e.vectors.map(asSparse);
    if (xs.length === 1) items.push({ x: xs[0] as SparseVector, y: label, weight: 1 });
    else if (label === 0) {
      for (const i of shuffle([...xs.keys()], rng).slice(0, NEGATIVE_WINDOWS))
        items.push({ x: xs[i] as SparseVector, y: 0, weight: WINDOW_WEIGHT });
    } else if (e.planted.length > 0) {
      const planted = new Set(e.planted);
      const clean = shuffle(
        [...xs.keys()].filter((i) => !planted.has(i)),
        rng,
      ).slice(0, NEGATIVE_WINDOWS);
      for (const i of e.planted) items.push({ x: xs[i] as SparseVector, y: 1, weight: 1 });
      for (const i of clean) items.push({ x: xs[i] as SparseVector, y: 0, weight: WINDOW_WEIGHT });
    } else {
      const scores = model ? xs.map((x) => dot(model.weights, x)) : xs.map(() => 0);
      const best = scores.indexOf(Math.max(...scores));
      items.push({ x: xs[best] as SparseVector, y: 1, weight: 1 });
    }
  }
  return items;
}
