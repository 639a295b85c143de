import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBaseline } from "../../src/eval/baseline.js";
import { baselineMetrics, checkGates, compareBaseline, parseGates, runGates } from "../../src/eval/gates.js";
import { junitXml } from "../../src/eval/junit.js";
import { summaryWith } from "./helpers.js";

describe("parseGates", () => {
  it("reads --fail-under as floors (ceilings for fpr and fnr) and --max-fpr as a ceiling", () => {
    expect(parseGates("f1=0.9, recall=0.95,fnr=0.1", "0.02")).toEqual([
      { metric: "f1", op: ">=", value: 0.9 },
      { metric: "recall", op: ">=", value: 0.95 },
      { metric: "fnr", op: "<=", value: 0.1 },
      { metric: "fpr", op: "<=", value: 0.02 },
    ]);
    expect(parseGates("llm.auc=0.95", undefined)).toEqual([{ metric: "llm.auc", op: ">=", value: 0.95 }]);
  });

  it.each([
    ["f2=0.9", /unknown metric "f2"/],
    ["f1", /"f1" is not METRIC=VALUE/],
    ["f1=high", /"high" is not a number from 0 to 1/],
    ["recall=1.5", /not a number from 0 to 1/],
  ])("rejects %s", (spec, message) => {
    expect(() => parseGates(spec, undefined)).toThrow(message);
  });
});

describe("checkGates", () => {
  it("passes and fails each gate, naming it", () => {
    const results = checkGates(summaryWith({ f1: 0.75, fpr: 0.01 }), parseGates("f1=0.9", "0.02"));
    expect(results).toEqual([
      {
        name: "f1>=0.9",
        metric: "f1",
        passed: false,
        actual: 0.75,
        expected: 0.9,
        message: "f1 is 0.75; the gate requires >= 0.9",
      },
      {
        name: "fpr<=0.02",
        metric: "fpr",
        passed: true,
        actual: 0.01,
        expected: 0.02,
        message: "fpr is 0.01; the gate requires <= 0.02",
      },
    ]);
  });

  it("fails a gate on an undefined metric", () => {
    expect(
      checkGates(summaryWith({ precision: null }), parseGates("precision=0.5", undefined))[0],
    ).toMatchObject({
      passed: false,
      message: "precision is undefined; the gate requires >= 0.5",
    });
  });
});

describe("baseline", () => {
  const before = summaryWith({ f1: 0.8, recall: 0.7, fpr: 0.01 });

  it("fails a metric that dropped by more than the tolerance, and an FPR that rose", () => {
    const now = summaryWith({ f1: 0.792, recall: 0.68, fpr: 0.03 });
    const results = compareBaseline(now, before, ["f1", "recall", "fpr"], 0.01);
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ["baseline:f1", true],
      ["baseline:recall", false],
      ["baseline:fpr", false],
    ]);
    expect(results[1]?.message).toBe("recall went from 0.7 to 0.68 (tolerance 0.01)");
  });

  it("compares the gated metrics, else the headline ones", () => {
    expect(baselineMetrics(parseGates("f1=0.5", undefined))).toEqual(["f1"]);
    expect(baselineMetrics([])).toEqual(["precision", "recall", "f1", "accuracy", "fpr"]);
  });

  it("loads a saved summary and rejects anything else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-baseline-"));
    const good = join(dir, "good.json");
    await writeFile(good, JSON.stringify(before));
    expect((await loadBaseline(good)).metrics?.f1).toBe(0.8);
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{not json");
    await expect(loadBaseline(bad)).rejects.toThrow(/not JSON/);
    await writeFile(bad, JSON.stringify({ rows: 3 }));
    await expect(loadBaseline(bad)).rejects.toThrow(/not a batch summary: metrics/);
    await expect(loadBaseline(join(dir, "missing.json"))).rejects.toThrow(/cannot read/);
    await writeFile(bad, JSON.stringify(summaryWith({ f1: 0.99 }, { interrupted: true, rows: 3 })));
    await expect(loadBaseline(bad)).rejects.toThrow(
      /the run it saved was interrupted; save the summary of a complete run/,
    );
  });
});

describe("runGates", () => {
  it("applies the gates and the baseline to a finished run", () => {
    const summary = summaryWith({ f1: 0.75 });
    const gates = runGates(summary, 100, parseGates("f1=0.7", undefined), {
      summary: summaryWith({ f1: 0.9 }),
      tolerance: 0.01,
    });
    expect(gates.map((g) => [g.name, g.passed])).toEqual([
      ["f1>=0.7", true],
      ["baseline:f1", false],
    ]);
  });

  it("fails an interrupted run, even with no gate asked for, so its JUnit report is never green", () => {
    const summary = summaryWith({ f1: 0.99 }, { interrupted: true, rows: 40 });
    summary.gates = runGates(summary, 100, []);
    expect(summary.gates).toEqual([
      {
        name: "complete",
        metric: "rows",
        passed: false,
        actual: 40,
        expected: 100,
        message: "run interrupted after 40 of 100 rows",
      },
    ]);
    const xml = junitXml(summary);
    expect(xml).toContain('tests="1" failures="1"');
    expect(xml).toContain('<failure message="run interrupted after 40 of 100 rows" type="gate">');
  });
});
