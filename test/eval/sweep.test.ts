import { describe, expect, it } from "vitest";
import { buildCurve } from "../../src/eval/curves.js";
import { recommend, sweep, thresholdBetween } from "../../src/eval/sweep.js";

// Positives 0.95, 0.9, 0.7, 0.3; negatives 0.8, 0.4, 0.2, 0.1.
const curve = buildCurve(
  Float64Array.from([0.95, 0.9, 0.8, 0.7, 0.4, 0.3, 0.2, 0.1]),
  Int8Array.from([1, 1, 0, 1, 0, 1, 0, 0]),
);

describe("sweep", () => {
  it("tabulates precision, recall, FPR and F1 at each grid threshold, with the profile's own", () => {
    const table = sweep(curve, 0.33);
    expect(table).toHaveLength(22);
    const at = (t: number) => table.find((p) => p.threshold === t);
    expect(at(0.5)).toEqual({ threshold: 0.5, precision: 3 / 4, recall: 3 / 4, fpr: 1 / 4, f1: 3 / 4 });
    expect(at(0.33)).toMatchObject({ precision: 3 / 5, recall: 3 / 4 });
    expect(at(0)).toMatchObject({ recall: 1, fpr: 1 });
    expect(at(1)).toEqual({ threshold: 1, precision: null, recall: 0, fpr: 0, f1: null });
  });
});

describe("recommend", () => {
  it("for an FPR cap, picks the highest recall that meets it", () => {
    const r = recommend(curve, { metric: "fpr", value: 0.25 });
    // Flagging ≥ 0.7 gives recall 3/4 at FPR 1/4; the threshold sits between 0.4 and 0.7.
    expect(r.threshold).toBeGreaterThan(0.4);
    expect(r.threshold).toBeLessThan(0.7);
    expect(r.at).toMatchObject({ recall: 0.75, fpr: 0.25 });
  });

  it("for a recall floor, picks the lowest FPR that meets it", () => {
    const r = recommend(curve, { metric: "recall", value: 1 });
    expect(r.threshold).toBeGreaterThan(0.2);
    expect(r.threshold).toBeLessThan(0.3);
    expect(r.at).toMatchObject({ recall: 1, fpr: 0.5 });
  });

  it("says when no threshold meets the target", () => {
    const r = recommend(curve, { metric: "fpr", value: 0 });
    expect(r.threshold).not.toBeNull(); // 0.9+ flags two positives and no negative
    const strict = recommend(buildCurve(Float64Array.from([0.9, 0.95]), Int8Array.from([1, 0])), {
      metric: "fpr",
      value: 0,
    });
    expect(strict).toMatchObject({ threshold: null, reason: "no threshold reaches FPR ≤ 0" });
  });

  it("chooses a short decimal strictly between two scores", () => {
    expect(thresholdBetween(0.7, 0.4)).toBe(0.6);
    expect(thresholdBetween(0.7312, 0.7311)).toBeGreaterThan(0.7311);
    expect(thresholdBetween(0.7312, 0.7311)).toBeLessThan(0.7312);
  });
});
