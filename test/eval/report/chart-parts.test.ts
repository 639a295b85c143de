import { describe, expect, it } from "vitest";
import { countTicks, frame, markers } from "../../../src/eval/report/chart.js";
import { esc } from "../../../src/eval/report/html.js";
import { operatingPoint } from "../../../src/eval/report/operating-point.js";
import type { GuardrailSummary } from "../../../src/eval/summary.js";

const guardrail = (over: Partial<GuardrailSummary>): GuardrailSummary => ({
  flagged: 0,
  tp: 0,
  fp: 0,
  standalone: null,
  errors: 0,
  scored: 0,
  threshold: 0.5,
  threshold_source: "profile",
  auc: null,
  pr_auc: null,
  recall_at_1pct_fpr: null,
  threshold_at_1pct_fpr: null,
  ...over,
});

describe("report building blocks", () => {
  it("escapes the five HTML-special characters", () => {
    expect(esc(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
  });

  it("picks round count ticks", () => {
    expect(countTicks(0)).toEqual([0]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(23)).toEqual([0, 10, 20, 30]);
    expect(countTicks(1000)).toEqual([0, 500, 1000]);
  });

  it("counts the operating point off the histogram, exactly on a bin edge", () => {
    const edges = [0, 0.25, 0.5, 0.75, 1];
    const g = guardrail({
      histogram: { edges, positive: [0, 1, 2, 1], negative: [3, 1, 0, 0], unlabelled: [0, 0, 0, 0] },
    });
    expect(operatingPoint(g, 0.5)).toEqual({ threshold: 0.5, fpr: 0, tpr: 0.75, precision: 1, exact: true });
    expect(operatingPoint(g, 0.3)?.exact).toBe(false);
    expect(operatingPoint(g, null)).toBeNull();
    const oneClass = guardrail({
      histogram: { edges, positive: [0, 0, 0, 0], negative: [3, 1, 0, 0], unlabelled: [0, 0, 0, 0] },
    });
    expect(operatingPoint(oneClass, 0.5)).toBeNull();
  });

  it("prefers the sweep's exact point when it has the threshold", () => {
    const g = guardrail({ sweep: [{ threshold: 0.5, precision: 0.8, recall: 0.6, fpr: 0.1, f1: 0.69 }] });
    expect(operatingPoint(g, 0.5)).toEqual({
      threshold: 0.5,
      fpr: 0.1,
      tpr: 0.6,
      precision: 0.8,
      exact: true,
    });
  });

  it("keeps the labels of two close markers apart", () => {
    const f = frame();
    const out = markers(f, [
      { x: 0.9, y: 1, label: "threshold 0.5", cls: "op" },
      { x: 0.92, y: 1, label: "recommended 0.45", cls: "rec" },
    ]);
    const ys = [...out.matchAll(/<text[^>]* y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(ys).toHaveLength(2);
    expect(Math.abs((ys[0] ?? 0) - (ys[1] ?? 0))).toBeGreaterThanOrEqual(13);
    for (const y of ys) expect(y).toBeGreaterThan(f.top);
  });
});
