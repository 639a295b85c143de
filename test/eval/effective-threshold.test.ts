import { describe, expect, it } from "vitest";
import { describeThreshold, ThresholdTally } from "../../src/eval/effective-threshold.js";

describe("the effective threshold", () => {
  it("is the model's own, the one most findings reported, when the profile sets none", () => {
    const tally = new ThresholdTally();
    for (const t of [0.4541, 0.4541, 0.7, null]) tally.add(t);
    expect(tally.effective(null)).toEqual({ threshold: 0.4541, threshold_source: "model" });
  });

  it("is the profile's when it sets one, even before any row has run", () => {
    const tally = new ThresholdTally();
    expect(tally.effective(0.9)).toEqual({ threshold: 0.9, threshold_source: "profile" });
    tally.add(0.9);
    expect(tally.effective(0.9)).toEqual({ threshold: 0.9, threshold_source: "profile" });
  });

  it("is absent for a guardrail whose findings carry none (rules)", () => {
    const tally = new ThresholdTally();
    tally.add(null);
    expect(tally.effective(null)).toEqual({ threshold: null, threshold_source: null });
  });

  it("says in words whose it is", () => {
    expect(describeThreshold({ threshold: 0.4541, threshold_source: "model" })).toBe("0.4541 (model's own)");
    expect(describeThreshold({ threshold: 0.5, threshold_source: "profile" })).toBe("0.5");
    expect(describeThreshold({ threshold: null, threshold_source: null })).toBe("–");
  });
});
