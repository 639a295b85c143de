import type { CompareSummary } from "./compare-summary.js";

/** How the terminal and the HTML report write a comparison's figures: the same words in both. */

const MINUS = "\u2212";

/** A count change: `+3`, `−2`, `0`. */
export const signed = (v: number): string => (v > 0 ? `+${v}` : v < 0 ? `${MINUS}${-v}` : "0");

/** A ratio change in percentage points: `+2.5 pp`, `−0.8 pp`; `–` where either side is undefined. */
export const points = (v: number | null): string => {
  if (v === null) return "–";
  const s = (Math.abs(v) * 100).toFixed(1);
  return s === "0.0" ? "0.0 pp" : `${v > 0 ? "+" : MINUS}${s} pp`;
};

/** An F1 change: `+0.031`. */
export const signedF1 = (v: number | null): string =>
  v === null ? "–" : v === 0 ? "0.000" : `${v > 0 ? "+" : MINUS}${Math.abs(v).toFixed(3)}`;

/** A p-value as people read them: four decimals, or `< 0.0001`. */
export const pValue = (p: number): string => (p < 1e-4 ? "< 0.0001" : p.toFixed(4));

/** The level the verdict sentence judges at; the p-value itself is printed beside it. */
export const ALPHA = 0.05;

/**
 * One sentence on what McNemar's test says about the two profiles' overall verdicts, naming which
 * is right more often only when the test says the difference is unlikely to be chance.
 */
export function mcnemarVerdict(c: CompareSummary): string {
  const m = c.mcnemar;
  if (m === null) return c.mcnemar_note ?? "no McNemar test";
  const [a, b] = [c.a.profile, c.b.profile];
  const counts = `${m.b} row${m.b === 1 ? "" : "s"} only ${a} judged right, ${m.c} only ${b}`;
  if (m.b + m.c === 0) return `${counts}: they agree on every labelled row`;
  if (m.p_value >= ALPHA)
    return `${counts}: no significant difference (exact McNemar p = ${pValue(m.p_value)}, ≥ ${ALPHA})`;
  const better = m.c > m.b ? b : a;
  return `${counts}: ${better} is right more often (exact McNemar p = ${pValue(m.p_value)} < ${ALPHA})`;
}
