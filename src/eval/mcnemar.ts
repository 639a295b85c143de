/**
 * The exact McNemar test on paired verdicts: of the rows where two profiles disagree about being
 * right, `b` are those only the first got right and `c` those only the second did. Under the null
 * hypothesis (neither is better) each discordant row is a fair coin, so the two-sided p-value is
 * the exact binomial tail p = min(1, 2 · Σ_{k ≤ min(b,c)} C(b+c, k) / 2^(b+c)).
 * https://en.wikipedia.org/wiki/McNemar%27s_test (the exact, binomial form; no continuity correction).
 */
export interface McNemar {
  /** Rows the first profile judged right and the second wrong. */
  readonly b: number;
  /** Rows the second profile judged right and the first wrong. */
  readonly c: number;
  readonly p_value: number;
}

/**
 * The two-sided p-value. Each term is formed in log space (lgamma-free: a running sum of logs), so
 * C(5000, 2500) / 2^5000, which overflows both factors, stays a finite number; the terms are added
 * from the largest down, scaled by the largest, so no small one is lost against it.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`McNemar counts must be whole numbers ≥ 0, got b=${b}, c=${c}`);
  const n = b + c;
  const m = Math.min(b, c);
  if (n === 0 || 2 * m === n) return 1;
  // log C(n, k) for k = 0..m, by C(n, k) = C(n, k-1) · (n-k+1) / k.
  const logTerms = new Float64Array(m + 1);
  for (let k = 1; k <= m; k++) logTerms[k] = (logTerms[k - 1] ?? 0) + Math.log((n - k + 1) / k);
  // The terms grow with k up to m < n/2: the last is the largest.
  const top = logTerms[m] ?? 0;
  let scaled = 0;
  for (let k = m; k >= 0; k--) scaled += Math.exp((logTerms[k] ?? 0) - top);
  const logP = Math.LN2 + top + Math.log(scaled) - n * Math.LN2;
  return Math.min(1, Math.exp(logP));
}

export const mcnemar = (b: number, c: number): McNemar => ({ b, c, p_value: mcnemarExact(b, c) });
