import { render } from "ink-testing-library";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { BatchView, type BatchViewProps } from "../../../src/cli/batch-view/BatchView.js";
import type { Progress } from "../../../src/eval/summary.js";
import { sampleSummary } from "../../eval/report/sample-summary.js";

const progress = (over: Partial<Progress> = {}): Progress => ({
  rows: 540,
  total: 1000,
  flagged: 123,
  skipped: 0,
  confusion: { tp: 100, fp: 23, tn: 400, fn: 17 },
  f1: 0.833,
  rows_per_s: 216,
  elapsed_ms: 2500,
  ...over,
});

const frame = (props: Partial<BatchViewProps>) => {
  const view = render(
    createElement(BatchView, {
      progress: progress(),
      summary: null,
      stopping: false,
      color: false,
      ...props,
    }),
  );
  const text = view.lastFrame() ?? "";
  view.unmount();
  return text;
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes
const ESC = /\u001b\[/;

describe("BatchView", () => {
  it("shows a progress bar with rows/s and the ETA", () => {
    const text = frame({ barWidth: 20 });
    expect(text).toContain("54%");
    expect(text).toContain("540/1000 rows");
    expect(text).toContain("216 rows/s");
    expect(text).toContain("ETA 2s"); // 460 rows left at 216 rows/s
    expect(text).toMatch(/▕█{10}[▏▎▍▌▋▊▉]? +▏/);
  });

  it("shows live confusion counts and the current F1", () => {
    const text = frame({});
    expect(text).toMatch(/flagged 123 +tp 100 +fp 23 +tn 400 +fn 17 +F1 0\.833/);
  });

  it("says so when the file has no labels, and when rows were skipped", () => {
    const text = frame({
      progress: progress({ confusion: { tp: 0, fp: 0, tn: 0, fn: 0 }, f1: null, skipped: 3 }),
    });
    expect(text).toContain("no labels");
    expect(text).not.toContain("F1");
    expect(text).toContain("3 invalid skipped");
  });

  it("works without a known total", () => {
    const text = frame({ progress: progress({ total: null }) });
    expect(text).toContain("540 rows");
    expect(text).not.toContain("%");
    expect(text).not.toContain("ETA");
  });

  it("says it is stopping after Ctrl-C", () => {
    expect(frame({ stopping: true })).toContain("stopping: finishing the rows in flight");
  });

  it("ends with the final progress and the summary table", () => {
    const summary = sampleSummary();
    const done = progress({ rows: 200, total: 200, elapsed_ms: 1234 });
    const text = frame({ progress: done, summary });
    expect(text).toContain("100%");
    expect(text).toContain("done in 1s");
    expect(text).toContain("200 rows evaluated");
    expect(text).toContain(`F1 ${summary.metrics?.f1?.toFixed(3)}`);
    expect(text).toMatch(/guardrail +flagged +alone tp/);
    expect(text).toMatch(/flagged +tp \d+ +fp \d+/);
  });

  it("puts an interrupted run and failed gates in the verdict line", () => {
    const summary = sampleSummary();
    summary.gates = [
      { name: "f1>=0.99", metric: "f1", passed: false, actual: 0.8, expected: 0.99, message: "0.8 < 0.99" },
    ];
    expect(frame({ summary })).toContain("1 of 1 gates failed");
    summary.interrupted = true;
    const text = frame({ summary });
    expect(text).toContain("interrupted: summary of the 200 rows done");
    expect(text).toContain("stopped after 3s");
    expect(text).not.toContain("ETA");
  });

  it("writes no colour codes when colour is off (NO_COLOR)", () => {
    expect(frame({ summary: sampleSummary() })).not.toMatch(ESC);
    expect(frame({})).not.toMatch(ESC);
  });
});
