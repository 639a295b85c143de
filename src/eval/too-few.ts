/**
 * Figures a run has too few rows to support: they are null in the summary, with the reason under
 * `withheld`, and printed as `n/a (too few rows: N)` instead of a number that reads as a finding.
 */

/**
 * Recall at 1% FPR needs at least 100 labelled benign rows with a score: below that, 1% of them is
 * less than one row, so the figure is recall at zero false positives, and on a handful of rows
 * often 100% for a guardrail that flagged nothing.
 */
export const MIN_NEGATIVES_AT_1PCT_FPR = 100;

/**
 * A percentile q is told apart from the maximum only with at least 1/(1 − q) samples: p50 needs 2,
 * p95 20, p99 100. Fewer, and p95 and p99 are the slowest row again (p50 = p95 = p99 on 10 rows).
 */
export const MIN_SAMPLES = { p50_ms: 2, p95_ms: 20, p99_ms: 100 } as const;

/** Why a figure was withheld, as `withheld` records it. */
export function tooFew(what: string, count: number, needed: number): string {
  return `too few rows: ${count} ${what} (needs ${needed})`;
}

/** How the terminal and the report print a withheld figure: its count, not a number. */
export function withheldText(reason: string | undefined): string | undefined {
  const count = reason?.match(/^too few rows: (\d+)/)?.[1];
  return count === undefined ? undefined : `n/a (too few rows: ${count})`;
}
