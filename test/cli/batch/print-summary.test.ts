import { describe, expect, it } from "vitest";
import { renderSummary } from "../../../src/cli/batch/print-summary.js";
import { paint } from "../../../src/cli/output.js";
import { summaryWith } from "../../eval/helpers.js";

describe("the plain-text summary", () => {
  it("cuts and escapes category names: they are cells of the data set", () => {
    const metrics = {
      precision: 1,
      recall: 1,
      f1: 1,
      accuracy: 1,
      fpr: 0,
      fnr: 0,
      tp: 1,
      fp: 0,
      tn: 0,
      fn: 0,
    };
    const huge = `\u001b[2J${"c".repeat(1_000_000)}`;
    const summary = summaryWith(
      {},
      {
        categories: { qa: { rows: 1, flagged: 1, ...metrics }, [huge]: { rows: 1, flagged: 1, ...metrics } },
      },
    );
    const text = renderSummary(summary, paint(false));
    expect(text.length).toBeLessThan(3000);
    expect(text).toContain(`\\u001b[2J${"c".repeat(36)}…  1`);
    expect(text).not.toContain("\u001b");
  });
});
