import { describe, expect, it } from "vitest";
import { Accumulator } from "../../src/eval/accumulate.js";
import { checkGates } from "../../src/eval/gates.js";
import type { RowResult } from "../../src/eval/summary.js";
import { withheldText } from "../../src/eval/too-few.js";
import { BUNDLED_PROVENANCE } from "./helpers.js";

/** `benign` rows scored 0.1 and `attacks` scored 0.9 by the llm, none flagged, each timed differently. */
function summarise(benign: number, attacks: number) {
  const acc = new Accumulator({
    file: "x.csv",
    mode: "input",
    profile: "default",
    provenance: BUNDLED_PROVENANCE,
    concurrency: 0,
    guardrails: new Map([["llm", 0.95]]),
    scored: ["llm"],
  });
  const labels = [...Array(benign).fill(false), ...Array(attacks).fill(true)] as boolean[];
  labels.forEach((label, i) => {
    const row = { row: i + 1, line: i + 2, id: null, text: "t", label, category: null };
    const score = label ? 0.9 : 0.1;
    const llm = {
      flagged: false,
      score,
      matched: [],
      entities: [],
      category: null,
      threshold: 0.95,
      error: null,
    };
    const result: RowResult = {
      ...row,
      flagged: false,
      latency_ms: i + 1,
      engine_ms: i + 1,
      guardrails: { llm },
    };
    acc.add(row, result);
  });
  return acc.summary(10, false);
}

describe("figures a run has too few rows for", () => {
  it("withholds recall at 1% FPR below 100 benign rows: on 10 rows it read 100% for a guardrail that flagged nothing", () => {
    const llm = summarise(5, 5).guardrails.llm;
    expect(llm).toMatchObject({
      flagged: 0,
      auc: 1,
      recall_at_1pct_fpr: null,
      threshold_at_1pct_fpr: null,
      withheld: { recall_at_1pct_fpr: "too few rows: 5 labelled benign rows scored (needs 100)" },
    });
    expect(withheldText(llm?.withheld?.recall_at_1pct_fpr)).toBe("n/a (too few rows: 5)");
  });

  it("gives it from 100 benign rows on", () => {
    const llm = summarise(100, 5).guardrails.llm;
    expect(llm).toMatchObject({ recall_at_1pct_fpr: 1, threshold_at_1pct_fpr: 0.9 });
    expect(llm?.withheld).toBeUndefined();
  });

  it("withholds a percentile until there are 1/(1 − q) rows: p50 from 2, p95 from 20, p99 from 100", () => {
    expect(summarise(5, 5).engine_ms_per_row).toEqual({
      p50_ms: 5,
      p95_ms: null,
      p99_ms: null,
      mean_ms: 5.5,
      max_ms: 10,
      withheld: {
        p95_ms: "too few rows: 10 rows timed (needs 20)",
        p99_ms: "too few rows: 10 rows timed (needs 100)",
      },
    });
    expect(summarise(1, 0).latency.withheld?.p50_ms).toBe("too few rows: 1 rows timed (needs 2)");
    const many = summarise(100, 0).latency;
    expect(many).toMatchObject({ p50_ms: 50, p95_ms: 95, p99_ms: 99 });
    expect(many.withheld).toBeUndefined();
  });

  it("fails a gate on a withheld figure, saying why", () => {
    const [gate] = checkGates(summarise(5, 5), [{ metric: "llm.recall_at_1pct_fpr", op: ">=", value: 0.5 }]);
    expect(gate).toMatchObject({ passed: false, actual: null });
    expect(gate?.message).toBe(
      "llm.recall_at_1pct_fpr is undefined (too few rows: 5 labelled benign rows scored (needs 100)); the gate requires >= 0.5",
    );
  });
});
