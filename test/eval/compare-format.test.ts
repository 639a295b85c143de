import { describe, expect, it } from "vitest";
import { mcnemarVerdict, points, pValue, signed, signedF1 } from "../../src/eval/compare-format.js";
import type { CompareSummary } from "../../src/eval/compare-summary.js";

const withTest = (mcnemar: CompareSummary["mcnemar"], note: string | null = null) =>
  ({ a: { profile: "default" }, b: { profile: "mine" }, mcnemar, mcnemar_note: note }) as CompareSummary;

describe("writing a comparison", () => {
  it("signs changes and writes ratios in percentage points", () => {
    expect([signed(3), signed(-2), signed(0)]).toEqual(["+3", "−2", "0"]);
    expect([points(0.025), points(-0.0081), points(0), points(null)]).toEqual([
      "+2.5 pp",
      "−0.8 pp",
      "0.0 pp",
      "–",
    ]);
    expect([signedF1(0.0312), signedF1(-0.5), signedF1(null)]).toEqual(["+0.031", "−0.500", "–"]);
    expect([pValue(0.021484375), pValue(3e-9)]).toEqual(["0.0215", "< 0.0001"]);
  });

  it("names the profile that is right more often only when the test says so", () => {
    expect(mcnemarVerdict(withTest({ b: 1, c: 9, p_value: 0.021484375 }))).toBe(
      "1 row only default judged right, 9 only mine: mine is right more often (exact McNemar p = 0.0215 < 0.05)",
    );
    expect(mcnemarVerdict(withTest({ b: 9, c: 1, p_value: 0.021484375 }))).toMatch(
      /: default is right more often/,
    );
    expect(mcnemarVerdict(withTest({ b: 10, c: 20, p_value: 0.0987 }))).toMatch(
      /no significant difference \(exact McNemar p = 0\.0987/,
    );
    expect(mcnemarVerdict(withTest({ b: 0, c: 0, p_value: 1 }))).toMatch(/agree on every labelled row/);
    expect(mcnemarVerdict(withTest(null, "no labels: it needs a label column"))).toBe(
      "no labels: it needs a label column",
    );
  });
});
