/** The logistic function, shared by every trained model and its trainer so scores match bit for bit. */
export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Softmax of `z`, written over it, computed stably (the largest logit subtracted first). */
export function softmaxInPlace(z: Float64Array): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  for (let i = 0; i < z.length; i++) {
    z[i] = Math.exp((z[i] as number) - max);
    sum += z[i] as number;
  }
  for (let i = 0; i < z.length; i++) z[i] = (z[i] as number) / sum;
  return z;
}
