import { applyIsotonic, fitIsotonic, type Isotonic } from "../../src/guardrails/llm/isotonic.js";
import { fitPlatt } from "../lib/platt.js";
import type { Example } from "./example.js";
import { type PooledRule, thresholdForBalancedFpr, thresholdForPooledFpr } from "./metrics.js";

export type Rule = "pooled" | "balanced";

export interface ThresholdRules {
  /** The rule that sets the bundled threshold. */
  rule: Rule;
  maxFpr: number;
  pooled: PooledRule;
}

/**
 * A threshold to four decimals, rounded up, never down: rounding down could flag benign texts tied
 * at the cut the rule excluded.
 */
export const roundUp = (t: number): number => Math.min(1, Math.ceil(t * 1e4 - 1e-9) / 1e4);

/** Sources with fewer benign calibration texts are pooled for the balanced rule. */
const MIN_SOURCE = 20;
/** The share of attacks the calibrated score assumes. */
const PRIOR = 0.1;

export interface Calibration {
  platt: { a: number; b: number };
  isotonic: Isotonic;
  threshold: number;
  thresholds: Record<Rule, number>;
  sources: number;
}

/**
 * Isotonic calibration fitted with the classes weighted equally, then stated for a population in
 * which one text in ten is an attack (PRIOR): a plain question lands near 0, an override near 1.
 * Platt is fitted too, for the n-gram header field v1 readers expect. Both threshold rules are
 * computed on the calibrated score of the calibration split; `rules.rule` picks the bundled one:
 * - "pooled": the lowest threshold whose FPR over all benign calibration texts is ≤ maxFpr, with
 *   no source of ≥ minSource benign texts above maxSourceFpr;
 * - "balanced": FPR averaged over sources with equal weight ≤ maxFpr.
 */
export function calibrate(
  calibration: Example[],
  rawOf: (e: Example, i: number) => number,
  rules: ThresholdRules,
  log: (m: string) => void,
): Calibration {
  const z = calibration.map(rawOf);
  const labels = calibration.map((e) => e.label);
  const platt = fitPlatt(z, labels, { balanceClasses: true, prior: 0.5, tolerance: 1e-10 });
  const isotonic = fitIsotonic(z, labels, PRIOR);
  // For the balanced rule, sources with fewer than MIN_SOURCE benign texts in the split are
  // pooled: one text of three would otherwise count as a 33% FPR and decide the threshold alone.
  const counts = new Map<string, number>();
  for (const e of calibration) if (e.label === 0) counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
  const bySource = new Map<string, number[]>();
  const byRawSource = new Map<string, number[]>();
  calibration.forEach((e, i) => {
    if (e.label === 1) return;
    const p = applyIsotonic(isotonic, z[i] as number);
    const key = (counts.get(e.source) ?? 0) >= MIN_SOURCE ? e.source : "(small sources)";
    bySource.set(key, [...(bySource.get(key) ?? []), p]);
    byRawSource.set(e.source, [...(byRawSource.get(e.source) ?? []), p]);
  });
  const thresholds: Record<Rule, number> = {
    balanced: roundUp(thresholdForBalancedFpr([...bySource.values()], rules.maxFpr)),
    pooled: roundUp(thresholdForPooledFpr([...byRawSource.values()], rules.pooled)),
  };
  const threshold = thresholds[rules.rule];
  const benign = [...byRawSource.values()].flat();
  const flagged = benign.filter((x) => x >= threshold).length;
  const fpr = [...byRawSource]
    .map(([s, xs]) => [s, xs.filter((x) => x >= threshold).length, xs.length] as const)
    .filter(([, k]) => k > 0)
    .map(([s, k, n]) => `${s} ${k}/${n}`);
  log(
    `thresholds: pooled ${thresholds.pooled}, balanced ${thresholds.balanced}; at ${rules.rule} ${threshold}: ` +
      `${flagged}/${benign.length} benign calibration texts flagged (${fpr.join(", ")})`,
  );
  const top = calibration
    .map((e, i) => ({ e, z: z[i] as number }))
    .filter((r) => r.e.label === 0)
    .sort((a, b) => b.z - a.z)
    .slice(0, 12);
  for (const r of top)
    log(`  benign ${r.z.toFixed(2)} [${r.e.source}] ${r.e.text.slice(0, 100).replace(/\s+/gu, " ")}`);
  return { platt, isotonic, threshold, thresholds, sources: bySource.size };
}
