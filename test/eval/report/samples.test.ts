import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readTable } from "../../../src/eval/readers/index.js";
import { renderReport } from "../../../src/eval/report/index.js";
import type { BatchSummary } from "../../../src/eval/summary.js";
import { validateTable } from "../../../src/eval/validate.js";
import { cli } from "../../cli/helpers.js";

/** The labelled samples in datasets/samples/ that docs/batch.md's examples and reports use. */
const samples = (name: string) =>
  fileURLToPath(new URL(`../../../datasets/samples/${name}`, import.meta.url));

describe("datasets/samples", () => {
  it.each([
    ["injection-prompts.csv", "csv", "input", 63, false],
    ["model-responses.jsonl", "jsonl", "output", 40, true],
    ["leak-responses.jsonl", "jsonl", "output", 30, true],
    ["pii-texts.csv", "csv", "input", 30, false],
  ] as const)("%s: every row valid, labelled and categorised", async (file, format, mode, rows, prompt) => {
    const v = await validateTable(readTable(samples(file), format), {}, mode);
    expect(v.invalidCount).toBe(0);
    expect(v.total).toBe(rows);
    expect(v.columns.label).toBeDefined();
    expect(v.columns.category).toBe("category");
    expect(v.columns.prompt !== undefined).toBe(prompt);
  });

  it("pii-texts.csv runs through its sample profile into a full report", async () => {
    const run = await cli([
      "batch",
      samples("pii-texts.csv"),
      "--config",
      samples("config"),
      "--profile",
      "samples-pii",
      "--concurrency",
      "0",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as BatchSummary;
    expect(summary.labelled).toBe(30);
    expect(summary.metrics?.tp).toBeGreaterThan(10);
    const html = renderReport(summary);
    expect(html).toContain("<h2>By category</h2>");
    expect(html).toContain(">IBAN_CODE<");
    expect(html).not.toContain("NaN");
  });
});
