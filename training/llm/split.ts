import { hashRange } from "../../src/text/hash.js";
import type { Example } from "./example.js";

export type Split = "train" | "calibration" | "test" | "heldout";

/**
 * Splits by template family, never by row: a family (see dedup.ts) lands wholly in one split.
 * Examples from `heldoutSources` form the held-out set; any family that reaches into a held-out
 * source is dropped from the other splits, so no near-copy of a held-out text is trained on.
 */
export function splitByFamily(
  examples: Example[],
  family: Map<Example, string>,
  heldoutSources: ReadonlySet<string>,
  seed: number,
  fractions = { calibration: 0.15, test: 0.15 },
): { splits: Record<Split, Example[]>; leaked: number } {
  const touched = new Set<string>();
  for (const e of examples) if (heldoutSources.has(e.source)) touched.add(family.get(e) ?? e.group);
  const splits: Record<Split, Example[]> = { train: [], calibration: [], test: [], heldout: [] };
  let leaked = 0;
  for (const e of examples) {
    const f = family.get(e) ?? e.group;
    if (heldoutSources.has(e.source)) splits.heldout.push(e);
    else if (touched.has(f)) leaked++;
    else {
      const u = hashRange(seed, f, 0, f.length) / 4294967296;
      const split =
        u < fractions.calibration
          ? "calibration"
          : u < fractions.calibration + fractions.test
            ? "test"
            : "train";
      splits[split].push(e);
    }
  }
  return { splits, leaked };
}
