import { describe, expect, it } from "vitest";
import { macroAt, pick } from "../../../training/content-moderation/loso-sweep.js";

const rows = (pairs: [number, 0 | 1][]) => pairs.map(([score, label]) => ({ score, label }));

describe("loso-sweep", () => {
  const bySource = new Map([
    // Both labels: at 0.5, one of two unsafe caught and no safe row flagged (F1 2/3, FPR 0).
    [
      "toxic-set",
      rows([
        [0.9, 1],
        [0.3, 1],
        [0.2, 0],
        [0.1, 0],
      ]),
    ],
    // Safe rows only: at 0.5, one of four flagged.
    [
      "alpaca-outputs",
      rows([
        [0.6, 0],
        [0.1, 0],
        [0.1, 0],
        [0.1, 0],
      ]),
    ],
    // Unsafe only: enters recall, not F1 or FPR.
    [
      "lexicon",
      rows([
        [0.7, 1],
        [0.4, 1],
      ]),
    ],
  ]);

  it("averages F1 over sources with both labels, FPR over those with safe rows", () => {
    const p = macroAt(bySource, 0.5);
    expect(p.f1).toBeCloseTo(2 / 3);
    expect(p.fpr).toBeCloseTo((0 + 0.25) / 2);
    expect(p.recall).toBeCloseTo((0.5 + 0.5) / 2);
    expect(p.helpfulFpr).toBeCloseTo(0.25);
  });

  it("picks the best macro F1 within both ceilings, or nothing", () => {
    const points = [0.25, 0.5, 0.65].map((t) => macroAt(bySource, t));
    // 0.25 catches both toxic rows but flags a safe one; 0.65 flags no helpful answer.
    expect(pick(points, 1, 1)?.threshold).toBe(0.25);
    expect(pick(points, 1, 0)?.threshold).toBe(0.65);
    expect(pick(points.slice(0, 2), 1, 0)).toBeNull();
  });
});
