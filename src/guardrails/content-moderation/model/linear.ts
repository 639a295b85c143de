import type { Features } from "./features.js";

/**
 * Linear scoring shared by inference and the training script, so the figures in the model card
 * come from the same arithmetic the guardrail runs. Tables are row-major: `table[row * k + class]`.
 */
export function dot(f: Features, table: ArrayLike<number>, mask: number): number {
  let z = 0;
  for (let i = 0; i < f.hashes.length; i++)
    z += (table[(f.hashes[i] as number) & mask] as number) * (f.values[i] as number);
  return z;
}

export function dotClasses(
  f: Features,
  table: ArrayLike<number>,
  mask: number,
  bias: ArrayLike<number>,
  out: Float64Array,
): Float64Array {
  const k = out.length;
  for (let c = 0; c < k; c++) out[c] = bias[c] as number;
  for (let i = 0; i < f.hashes.length; i++) {
    const row = ((f.hashes[i] as number) & mask) * k;
    const v = f.values[i] as number;
    for (let c = 0; c < k; c++) out[c] = (out[c] as number) + (table[row + c] as number) * v;
  }
  return out;
}

/** A dense vector (an embedding) against a dense table. */
export function denseDot(x: ArrayLike<number>, table: ArrayLike<number>): number {
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (x[i] as number) * (table[i] as number);
  return z;
}

export function denseClasses(
  x: ArrayLike<number>,
  table: ArrayLike<number>,
  bias: ArrayLike<number>,
  out: Float64Array,
): Float64Array {
  const k = out.length;
  for (let c = 0; c < k; c++) out[c] = bias[c] as number;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (v === 0) continue;
    for (let c = 0; c < k; c++) out[c] = (out[c] as number) + (table[i * k + c] as number) * v;
  }
  return out;
}

/** Mean of unit vectors, renormalised: the whole text as the encoder's windows see it. */
export function meanVector(vectors: readonly ArrayLike<number>[]): Float32Array {
  const dim = vectors[0]?.length ?? 0;
  const mean = new Float32Array(dim);
  for (const v of vectors) for (let i = 0; i < dim; i++) mean[i] = (mean[i] as number) + (v[i] as number);
  let norm = 0;
  for (const m of mean) norm += m * m;
  const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dim; i++) mean[i] = (mean[i] as number) * s;
  return mean;
}
