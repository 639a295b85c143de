import { describe, expect, it } from "vitest";
import { Accumulator } from "../../src/eval/accumulate.js";
import type { RowGuardrailResult, RowResult } from "../../src/eval/summary.js";
import { BUNDLED_PROVENANCE } from "./helpers.js";

const verdict = (flagged: boolean): RowGuardrailResult => ({
  flagged,
  score: null,
  matched: [],
  entities: [],
  category: null,
  threshold: null,
  error: null,
});

/** Rows of `[label, keyword flagged, regex flagged]`, through the real accumulator. */
function summarise(rows: [boolean | null, boolean, boolean][]) {
  const acc = new Accumulator({
    file: "x.csv",
    mode: "input",
    profile: "default",
    provenance: BUNDLED_PROVENANCE,
    concurrency: 0,
    guardrails: new Map([
      ["keyword", null],
      ["regex", null],
    ]),
    scored: [],
  });
  rows.forEach(([label, keyword, regex], i) => {
    const row = { row: i + 1, line: i + 2, id: null, text: "t", label, category: null };
    const result: RowResult = {
      ...row,
      flagged: keyword || regex,
      latency_ms: 100,
      engine_ms: i + 1,
      guardrails: { keyword: verdict(keyword), regex: verdict(regex) },
    };
    acc.add(row, result);
  });
  return acc.summary(10, false);
}

describe("per-guardrail figures", () => {
  it("count what a guardrail caught alone apart from what it caught on its own", () => {
    const s = summarise([
      [true, true, true], // both caught it: neither alone
      [true, true, false], // keyword alone
      [true, false, false], // missed
      [false, false, true], // regex alone, a false positive
      [false, false, false],
    ]);
    expect(s.guardrails.keyword).toMatchObject({
      tp: 1,
      fp: 0,
      standalone: { tp: 2, fp: 0, tn: 2, fn: 1, precision: 1, recall: 0.666667, fpr: 0 },
    });
    expect(s.guardrails.regex).toMatchObject({
      tp: 0,
      fp: 1,
      standalone: { tp: 1, fp: 1, tn: 1, fn: 2, precision: 0.5, recall: 0.333333, fpr: 0.5 },
    });
  });

  it("report engine time per row apart from the in-batch wall time", () => {
    const s = summarise([
      [true, true, true],
      [true, true, false],
      [false, false, false],
      [false, false, true],
    ]);
    // p95 and p99 of 4 rows are withheld (test/eval/too-few.test.ts): only the maximum again.
    expect(s.engine_ms_per_row).toMatchObject({ p50_ms: 2, p99_ms: null, mean_ms: 2.5, max_ms: 4 });
    expect(s.latency.p50_ms).toBe(100);
  });

  it("have no standalone figures without labels", () => {
    expect(summarise([[null, true, false]]).guardrails.keyword?.standalone).toBeNull();
  });
});
