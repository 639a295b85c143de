import { describe, expect, it } from "vitest";
import { CompareTally, FLIPPED_KEPT } from "../../src/eval/compare.js";
import { mcnemarExact } from "../../src/eval/mcnemar.js";
import type { EvalRow } from "../../src/eval/rows.js";
import type { RowGuardrailResult, RowResult } from "../../src/eval/summary.js";

const g = (flagged: boolean, score: number | null = null): RowGuardrailResult => ({
  flagged,
  score,
  matched: [],
  entities: [],
  category: null,
  threshold: null,
  error: null,
});

/** One row: A runs llm and keyword, B runs llm and vector; `a`/`b` say what each flagged. */
function pair(
  n: number,
  label: boolean | null,
  a: { llm: number; keyword?: boolean },
  b: { llm: number; vector?: boolean },
) {
  const row: EvalRow = { row: n, line: n + 1, id: `r${n}`, text: `text ${n}`, label, category: null };
  const aLlm = g(a.llm >= 0.5, a.llm);
  const bLlm = g(b.llm >= 0.5, b.llm);
  const result: RowResult = {
    row: n,
    line: n + 1,
    id: `r${n}`,
    label,
    category: null,
    flagged: aLlm.flagged || a.keyword === true,
    latency_ms: 1,
    engine_ms: 1,
    guardrails: { llm: aLlm, keyword: g(a.keyword === true) },
    compared: {
      flagged: bLlm.flagged || b.vector === true,
      guardrails: { llm: bLlm, vector: g(b.vector === true, 0.1) },
    },
  };
  return [row, result] as const;
}

const tally = () =>
  new CompareTally({
    a: { profile: "default", profile_file: "profiles/default.yaml" },
    b: { profile: "mine", profile_file: "guardrail/profiles/mine.yaml" },
    guardrails: { a: ["llm", "keyword"], b: ["llm", "vector"] },
    scored: ["llm", "vector"],
  });

describe("comparing two profiles row by row", () => {
  it("tallies both sides' confusion, the deltas B − A, McNemar's b and c, and the flips", () => {
    const t = tally();
    const rows = [
      pair(1, true, { llm: 0.9 }, { llm: 0.8 }), // both right
      pair(2, true, { llm: 0.2 }, { llm: 0.7 }), // only B right: c
      pair(3, true, { llm: 0.1 }, { llm: 0.6 }), // only B right: c
      pair(4, false, { llm: 0.1, keyword: true }, { llm: 0.1 }), // A's keyword false positive: c
      pair(5, false, { llm: 0.1 }, { llm: 0.2, vector: true }), // B's vector false positive: b
      pair(6, false, { llm: 0.1 }, { llm: 0.1 }), // both right
    ];
    for (const [row, result] of rows) t.add(row, result);
    const s = t.summary();
    expect(s).toMatchObject({ rows: 6, labelled: 6, a: { profile: "default" }, b: { profile: "mine" } });
    expect(s.overall.a.metrics).toMatchObject({
      tp: 1,
      fp: 1,
      tn: 2,
      fn: 2,
      precision: 0.5,
      recall: 0.333333,
    });
    expect(s.overall.b.metrics).toMatchObject({ tp: 3, fp: 1, tn: 2, fn: 0, precision: 0.75, recall: 1 });
    expect(s.overall.delta).toMatchObject({
      flagged: 2,
      tp: 2,
      fp: 0,
      fn: -2,
      precision: 0.25,
      recall: 0.666667,
    });
    expect(s.overall.delta.f1).toBeCloseTo(0.857143 - 0.4, 5);
    expect(s.mcnemar).toEqual({ b: 1, c: 3, p_value: mcnemarExact(1, 3) });
    expect(s.mcnemar?.p_value).toBeCloseTo(0.625, 12);
    expect(s.mcnemar_note).toBeNull();
    // llm runs in both: its own verdicts compared; keyword and vector run in one each.
    expect(s.guardrails.llm?.delta).toMatchObject({ tp: 2, fn: -2 });
    expect(s.guardrails.llm?.mcnemar).toMatchObject({ b: 0, c: 2 });
    expect(s.guardrails.keyword).toMatchObject({ b: null, delta: null, mcnemar: null });
    expect(s.guardrails.keyword?.a?.metrics).toMatchObject({ fp: 1 });
    expect(s.guardrails.vector).toMatchObject({ a: null, delta: null, mcnemar: null });
    expect(s.flipped.a_only.count).toBe(1);
    expect(s.flipped.a_only.rows[0]).toMatchObject({
      id: "r4",
      label: false,
      text: "text 4",
      a: { flagged: true, score: 0.1, score_guardrail: "llm", guardrails: ["keyword"] },
      b: { flagged: false, score: 0.1, guardrails: [] },
    });
    expect(s.flipped.b_only.count).toBe(3);
    expect(s.flipped.b_only.rows.map((r) => r.id)).toEqual(["r2", "r3", "r5"]);
    expect(s.flipped.b_only.rows[0]?.b).toMatchObject({ flagged: true, score: 0.7, guardrails: ["llm"] });
  });

  it("without labels still lists the flips, and says why there is no McNemar test", () => {
    const t = tally();
    for (const [row, result] of [
      pair(1, null, { llm: 0.9 }, { llm: 0.1 }),
      pair(2, null, { llm: 0.1 }, { llm: 0.1 }),
    ])
      t.add(row, result);
    const s = t.summary();
    expect(s.labelled).toBe(0);
    expect(s.mcnemar).toBeNull();
    expect(s.mcnemar_note).toMatch(/no labels/);
    expect(s.overall.a).toEqual({ flagged: 1, metrics: null });
    expect(s.overall.delta).toMatchObject({ flagged: -1, precision: null });
    expect(s.guardrails.llm?.mcnemar).toBeNull();
    expect(s.flipped.a_only).toMatchObject({ count: 1, rows: [{ id: "r1", label: null }] });
  });

  it("keeps the first flips in file order and counts them all", () => {
    const t = tally();
    for (let n = 1; n <= FLIPPED_KEPT + 25; n++) {
      const [row, result] = pair(n, false, { llm: 0.1 }, { llm: 0.9 });
      t.add(row, result);
    }
    const s = t.summary();
    expect(s.flipped.b_only.count).toBe(FLIPPED_KEPT + 25);
    expect(s.flipped.b_only.rows).toHaveLength(FLIPPED_KEPT);
    expect(s.flipped.b_only.rows[0]?.row).toBe(1);
    expect(s.mcnemar).toMatchObject({ b: FLIPPED_KEPT + 25, c: 0 });
  });

  it("refuses a row without the second profile's verdict", () => {
    const [row, result] = pair(1, true, { llm: 0.9 }, { llm: 0.9 });
    const { compared: _, ...alone } = result;
    expect(() => tally().add(row, alone)).toThrow(/no second verdict/);
  });
});
