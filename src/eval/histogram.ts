import type { ScoreHistogram } from "./summary.js";

/** Scores binned over [0, 1] per label (values outside are clamped into the end bins). */
export function histogram(scores: Float64Array, labels: Int8Array, bins = 20): ScoreHistogram {
  const edges = Array.from({ length: bins + 1 }, (_, i) => Math.round((i / bins) * 1e6) / 1e6);
  const positive = new Array<number>(bins).fill(0);
  const negative = new Array<number>(bins).fill(0);
  const unlabelled = new Array<number>(bins).fill(0);
  scores.forEach((score, i) => {
    const bin = Math.min(bins - 1, Math.max(0, Math.floor(score * bins)));
    const target = labels[i] === 1 ? positive : labels[i] === 0 ? negative : unlabelled;
    target[bin] = (target[bin] ?? 0) + 1;
  });
  return { edges, positive, negative, unlabelled };
}
