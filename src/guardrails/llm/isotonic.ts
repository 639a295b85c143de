/**
 * Isotonic calibration (pool-adjacent-violators; Zadrozny & Elkan 2002): a monotone map from a raw
 * logit to P(injection), stored as knots and interpolated linearly between them. Unlike a sigmoid
 * it can send the whole benign bulk to ~0 without flattening the top.
 */
export interface Isotonic {
  /** Raw logits, increasing. */
  z: number[];
  /** Calibrated probabilities at those logits, non-decreasing. */
  p: number[];
}

export function applyIsotonic(c: Isotonic, z: number): number {
  const n = c.z.length;
  if (n === 0) return 0;
  if (z <= (c.z[0] as number)) return c.p[0] as number;
  if (z >= (c.z[n - 1] as number)) return c.p[n - 1] as number;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((c.z[mid] as number) <= z) lo = mid;
    else hi = mid;
  }
  const [z0, z1, p0, p1] = [c.z[lo] as number, c.z[hi] as number, c.p[lo] as number, c.p[hi] as number];
  return z1 > z0 ? p0 + ((p1 - p0) * (z - z0)) / (z1 - z0) : p1;
}

/**
 * Fits the map on labelled logits with the two classes weighted equally, so the score does not
 * depend on how many attacks the calibration split holds, then moves the odds to `prior` (the
 * share of attacks the probability assumes). Each pooled block becomes one knot at its weighted
 * mean logit.
 */
export function fitIsotonic(scores: readonly number[], labels: readonly (0 | 1)[], prior = 0.5): Isotonic {
  const pos = labels.filter((y) => y === 1).length;
  const neg = labels.length - pos;
  const w = [0.5 / (neg || 1), 0.5 / (pos || 1)];
  const order = scores.map((_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  const blocks: { sum: number; weight: number; zs: number }[] = [];
  for (const i of order) {
    const weight = w[labels[i] as number] as number;
    blocks.push({ sum: weight * (labels[i] as number), weight, zs: weight * (scores[i] as number) });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1] as (typeof blocks)[number];
      const a = blocks[blocks.length - 2] as (typeof blocks)[number];
      if (a.sum / a.weight < b.sum / b.weight) break;
      blocks.splice(-2, 2, { sum: a.sum + b.sum, weight: a.weight + b.weight, zs: a.zs + b.zs });
    }
  }
  const shift = (p: number) => (p * prior) / (p * prior + (1 - p) * (1 - prior));
  return { z: blocks.map((b) => b.zs / b.weight), p: blocks.map((b) => shift(b.sum / b.weight)) };
}
