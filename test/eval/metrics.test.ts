import { describe, expect, it } from "vitest";
import { averagePrecision, buildCurve, recallAtFpr, rocAuc, sampleCurves } from "../../src/eval/curves.js";
import { metricsOf } from "../../src/eval/metrics.js";

// Positives 0.9, 0.8, 0.5; negatives 0.8, 0.5, 0.3, 0.1; one unlabelled row (left out).
const scores = Float64Array.from([0.9, 0.8, 0.5, 0.8, 0.5, 0.3, 0.1, 0.99]);
const labels = Int8Array.from([1, 1, 1, 0, 0, 0, 0, -1]);
const curve = buildCurve(scores, labels);

describe("confusion metrics", () => {
  it("matches hand-computed values", () => {
    // tp 8, fp 2, tn 85, fn 5
    const m = metricsOf({ tp: 8, fp: 2, tn: 85, fn: 5 });
    expect(m.precision).toBeCloseTo(0.8);
    expect(m.recall).toBeCloseTo(8 / 13);
    expect(m.f1).toBeCloseTo((2 * 0.8 * (8 / 13)) / (0.8 + 8 / 13));
    expect(m.accuracy).toBeCloseTo(0.93);
    expect(m.fpr).toBeCloseTo(2 / 87);
    expect(m.fnr).toBeCloseTo(5 / 13);
  });

  it("leaves undefined ratios null rather than zero", () => {
    const m = metricsOf({ tp: 0, fp: 0, tn: 10, fn: 0 });
    expect(m).toMatchObject({ precision: null, recall: null, f1: null, accuracy: 1, fpr: 0, fnr: null });
  });
});

describe("ranking metrics", () => {
  it("builds one operating point per distinct score, high to low", () => {
    expect([...curve.thresholds]).toEqual([0.9, 0.8, 0.5, 0.3, 0.1]);
    expect([...curve.tp]).toEqual([1, 2, 3, 3, 3]);
    expect([...curve.fp]).toEqual([0, 1, 2, 3, 4]);
    expect([curve.positives, curve.negatives]).toEqual([3, 4]);
  });

  it("ROC-AUC counts ties as one half", () => {
    // Pairs won: 0.9 beats all 4; 0.8 beats 3 and ties 1 (3.5); 0.5 beats 2 and ties 1 (2.5) → 10 / 12.
    expect(rocAuc(curve)).toBeCloseTo(10 / 12, 10);
  });

  it("PR-AUC is the average precision", () => {
    // Recall steps of 1/3 at precision 1, 2/3 and 3/5.
    expect(averagePrecision(curve)).toBeCloseTo(1 / 3 + 2 / 9 + 1 / 5, 10);
  });

  it("recall at a false-positive-rate cap", () => {
    expect(recallAtFpr(curve, 0.01)).toEqual({ recall: 1 / 3, threshold: 0.9 });
    expect(recallAtFpr(curve, 0.25)).toEqual({ recall: 2 / 3, threshold: 0.8 });
    expect(recallAtFpr(curve, 1)).toEqual({ recall: 1, threshold: 0.5 });
  });

  it("is perfect for separable scores and a half for constant ones", () => {
    const sep = buildCurve(Float64Array.from([0.9, 0.8, 0.2, 0.1]), Int8Array.from([1, 1, 0, 0]));
    expect(rocAuc(sep)).toBe(1);
    expect(averagePrecision(sep)).toBe(1);
    const flat = buildCurve(Float64Array.from([0.5, 0.5, 0.5, 0.5]), Int8Array.from([1, 0, 1, 0]));
    expect(rocAuc(flat)).toBe(0.5);
    expect(averagePrecision(flat)).toBe(0.5);
  });

  it("is null without both classes", () => {
    const one = buildCurve(Float64Array.from([0.2, 0.4]), Int8Array.from([1, 1]));
    expect(rocAuc(one)).toBeNull();
    expect(averagePrecision(one)).toBeNull();
    expect(recallAtFpr(one, 0.01)).toEqual({ recall: null, threshold: null });
  });

  it("samples curves from (0, 0) to (1, 1)", () => {
    const { roc, pr } = sampleCurves(curve);
    expect(roc[0]).toEqual([0, 0]);
    expect(roc.at(-1)).toEqual([1, 1]);
    expect(pr[0]).toEqual([1 / 3, 1]);
  });
});
