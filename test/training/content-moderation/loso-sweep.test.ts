import { describe, expect, it } from "vitest";
import {
  atFoldThreshold,
  macroAt,
  pick,
  type SignalRow,
} from "../../../training/content-moderation/loso-sweep.js";

/** [toxic, compliance, label] */
const rows = (triples: [number, number, 0 | 1][]): SignalRow[] =>
  triples.map(([toxic, compliance, label]) => ({ label, signals: { toxic, compliance } }));
const both = (t: number) => ({ toxic: t, compliance: t });

describe("loso-sweep", () => {
  const bySource = new Map([
    // Both labels: at 0.5, one of two unsafe caught and no safe row flagged (F1 2/3, FPR 0).
    [
      "toxic-set",
      rows([
        [0.9, 0, 1],
        [0.3, 0, 1],
        [0.2, 0, 0],
        [0.1, 0, 0],
      ]),
    ],
    // Compliance: the unsafe row scores 0.4 on its own signal.
    [
      "compliance-set",
      rows([
        [0, 0.4, 1],
        [0, 0.1, 0],
      ]),
    ],
    // Safe rows only: at 0.5, one of four flagged (by the compliance signal).
    [
      "alpaca-outputs",
      rows([
        [0.1, 0.6, 0],
        [0.1, 0.1, 0],
        [0.1, 0.1, 0],
        [0.1, 0.1, 0],
      ]),
    ],
    // Unsafe only: enters recall, not F1 or FPR.
    [
      "lexicon",
      rows([
        [0.7, 0, 1],
        [0.4, 0, 1],
      ]),
    ],
  ]);

  it("averages F1 over sources with both labels, FPR over those with safe rows", () => {
    const p = macroAt(bySource, both(0.5));
    expect(p.f1).toBeCloseTo((2 / 3 + 0) / 2);
    expect(p.fpr).toBeCloseTo((0 + 0 + 0.25) / 3);
    expect(p.recall).toBeCloseTo((0.5 + 0 + 0.5) / 3);
    expect(p.helpfulFpr).toBeCloseTo(0.25);
  });

  it("flags a row when either signal reaches its own threshold, the bound included", () => {
    const p = macroAt(bySource, { toxic: 0.9, compliance: 0.4 });
    // toxic-set: only 0.9 (F1 2/3); compliance-set: 0.4 caught (F1 1); the helpful 0.6 flagged.
    expect(p.f1).toBeCloseTo((2 / 3 + 1) / 2);
    expect(p.helpfulFpr).toBeCloseTo(0.25);
  });

  it("picks the best macro F1 within both ceilings, or nothing", () => {
    const points = [
      macroAt(bySource, both(0.25)),
      macroAt(bySource, both(0.65)),
      // A threshold for each signal: both toxic rows caught, the helpful answer not.
      macroAt(bySource, { toxic: 0.25, compliance: 0.65 }),
    ];
    expect(pick(points, 1, 1)?.at).toEqual(both(0.25));
    expect(pick(points, 1, 0)?.at).toEqual({ toxic: 0.25, compliance: 0.65 });
    expect(pick(points.slice(0, 1), 1, 0)).toBeNull();
  });

  it("judges the verdict at each fold's own threshold with --at fold, the bound included", () => {
    const line = (source: string, threshold: number, verdict: number, label: 0 | 1) => ({
      source,
      threshold,
      verdict,
      label,
      signals: { toxic: verdict, compliance: 0 },
    });
    // Two folds with different thresholds: 0.3 flags 0.3 and 0.5; 0.6 flags only 0.7.
    const folds = new Map([
      ["a", [line("a", 0.3, 0.5, 1), line("a", 0.3, 0.3, 0), line("a", 0.3, 0.1, 0)].map(atFoldThreshold)],
      ["b", [line("b", 0.6, 0.7, 1), line("b", 0.6, 0.5, 1), line("b", 0.6, 0.4, 0)].map(atFoldThreshold)],
    ]);
    const p = macroAt(folds, both(1));
    expect(p.fpr).toBeCloseTo((0.5 + 0) / 2);
    expect(p.recall).toBeCloseTo((1 + 0.5) / 2);
    expect(p.f1).toBeCloseTo((2 / 3 + 2 / 3) / 2);
  });
});
