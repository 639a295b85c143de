import type { GuardrailSummary } from "./summary.js";

/** Where a guardrail's threshold came from: the profile sets it, or the model's own applies. */
export type ThresholdSource = "profile" | "model";

// The thresholds findings report are settings, not data: a handful at most. The cap keeps a
// guardrail that reported a new one per row from growing the tally without bound.
const MAX_DISTINCT = 64;

/**
 * Counts the thresholds a guardrail's findings applied. A profile that leaves `threshold` out runs
 * on the model's bundled one, which only the findings tell; the one most rows used is the
 * guardrail's effective threshold.
 */
export class ThresholdTally {
  readonly #counts = new Map<number, number>();

  add(threshold: number | null): void {
    if (threshold === null) return;
    const n = this.#counts.get(threshold);
    if (n !== undefined) this.#counts.set(threshold, n + 1);
    else if (this.#counts.size < MAX_DISTINCT) this.#counts.set(threshold, 1);
  }

  /** The effective threshold; the profile's own when it sets one and no row reported another. */
  effective(profile: number | null): { threshold: number | null; threshold_source: ThresholdSource | null } {
    let best: number | null = null;
    let most = 0;
    for (const [t, n] of this.#counts) {
      if (n > most) [best, most] = [t, n];
    }
    if (profile !== null) return { threshold: best ?? profile, threshold_source: "profile" };
    return { threshold: best, threshold_source: best === null ? null : "model" };
  }
}

/** The threshold in words: `0.4541 (model's own)`, `0.5`, or `–` when there is none. */
export function describeThreshold(g: Pick<GuardrailSummary, "threshold" | "threshold_source">): string {
  if (g.threshold === null) return "–";
  return g.threshold_source === "model" ? `${g.threshold} (model's own)` : String(g.threshold);
}
