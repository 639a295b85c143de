// Leave-one-source-out (training/content-moderation/held-out.ts): the held-out source must reach
// no step of the model it is scored by (training, Platt scaling or the threshold sweep).
import { describe, expect, it } from "vitest";
import type { Vectors } from "../../../training/content-moderation/embed-cache.js";
import { bucket, type Example } from "../../../training/content-moderation/example.js";
import { holdOut, scoreHeldOut } from "../../../training/content-moderation/held-out.js";
import { FOLDS, type Row } from "../../../training/content-moderation/splits.js";
import { headOptions } from "../../../training/content-moderation/train-options.js";

const row = (e: Example): Row => ({ ...e, test: false, fold: Math.floor(bucket(e.text, 29) * FOLDS) });
const many = (n: number, make: (i: number) => Example) => Array.from({ length: n }, (_, i) => row(make(i)));

const ROWS: Row[] = [
  ...many(40, (i) => ({
    text: `you worthless idiot number ${i}`,
    label: 1,
    signal: "toxic",
    source: "tweets",
  })),
  ...many(40, (i) => ({ text: `lovely weather in town ${i}`, label: 0, source: "tweets" })),
  ...many(40, (i) => ({
    text: `sure, step ${i}: mix the poison`,
    label: 1,
    signal: "compliance",
    source: "jailbreaks",
  })),
  ...many(40, (i) => ({ text: `I cannot help with that request ${i}`, label: 0, source: "jailbreaks" })),
  ...many(40, (i) => ({ text: `bake the bread for ${i} minutes`, label: 0, source: "alpaca-outputs" })),
  ...many(30, (i) => ({ text: `stupid idiot, shut up ${i}`, label: 1, signal: "toxic", source: "forum" })),
  ...many(30, (i) => ({ text: `the meeting is at ${i} o'clock`, label: 0, source: "forum" })),
];
const OPTIONS = (() => {
  const o = headOptions(7);
  const small = { ...o.binary, bits: 12, epochs: 2 };
  return { ...o, binary: small, category: small };
})();

describe("leave-one-source-out", () => {
  it("trains on every other source and tests on the held-out one alone", () => {
    const { train, test } = holdOut(ROWS, "forum");
    expect(test).toHaveLength(60);
    expect(test.every((r) => r.source === "forum")).toBe(true);
    expect(train.some((r) => r.source === "forum")).toBe(false);
    expect(train.length + test.length).toBe(ROWS.length);
  });

  it("leaves out rows that have no fold (a pooled test part)", () => {
    const rows = [...ROWS, { ...(ROWS[0] as Row), text: "held back", fold: -1, test: true }];
    expect(holdOut(rows, "forum").train).toHaveLength(ROWS.length - 60);
  });

  it("scores the held-out source with a model, calibration and threshold its labels never touched", () => {
    const before = scoreHeldOut(ROWS, "forum", OPTIONS);
    const flipped = ROWS.map((r) =>
      r.source === "forum" ? { ...r, label: (1 - (r.label ?? 0)) as 0 | 1 } : r,
    );
    const after = scoreHeldOut(flipped, "forum", OPTIONS);
    expect(after.threshold).toBe(before.threshold);
    expect(after.scores.map((s) => [s.verdict, s.signals])).toEqual(
      before.scores.map((s) => [s.verdict, s.signals]),
    );
    expect(after.scores.map((s) => s.label)).toEqual(before.scores.map((s) => 1 - s.label));
  });

  it("would notice a held-out source that leaked: another source's labels do change the model", () => {
    const base = scoreHeldOut(ROWS, "forum", OPTIONS);
    const flipped = ROWS.map((r) =>
      r.source === "tweets" ? { ...r, label: (1 - (r.label ?? 0)) as 0 | 1 } : r,
    );
    expect(scoreHeldOut(flipped, "forum", OPTIONS).scores.map((s) => s.verdict)).not.toEqual(
      base.scores.map((s) => s.verdict),
    );
  });

  it("gives the verdict the larger of the two signals, each a probability", () => {
    const { scores } = scoreHeldOut(ROWS, "forum", OPTIONS);
    for (const s of scores) {
      expect(s.verdict).toBe(Math.max(s.signals.toxic, s.signals.compliance));
      expect(s.verdict).toBeGreaterThan(0);
      expect(s.verdict).toBeLessThan(1);
    }
    const toxic = scores.filter((s) => s.label === 1).map((s) => s.signals.toxic);
    const calm = scores.filter((s) => s.label === 0).map((s) => s.signals.toxic);
    expect(Math.min(...toxic)).toBeGreaterThan(Math.max(...calm));
  });

  it("scores the held-out rows on a second set of vectors (--score-int8) with the same fold model", () => {
    // One direction per kind of row, a little apart per row: what an encoder would give.
    const direction = (r: Row) => (r.label === 0 ? 2 : r.signal === "toxic" ? 0 : 1);
    const vector = (r: Row, i: number, flip = false) => {
      const v = new Float32Array(8);
      v[flip && r.source === "forum" ? 2 - direction(r) : direction(r)] = 1;
      v[3 + (i % 5)] = 0.1;
      return [v];
    };
    const fp32: Vectors = new Map(ROWS.map((r, i) => [r.text, vector(r, i)]));
    const alone = scoreHeldOut(ROWS, "forum", OPTIONS, fp32);
    expect(alone.int8Scores).toBeUndefined();
    // The same vectors again: the same scores.
    expect(scoreHeldOut(ROWS, "forum", OPTIONS, fp32, fp32).int8Scores).toEqual(alone.scores);
    // Other vectors for the held-out texts move only the second view; fitting never reads them.
    const other: Vectors = new Map(ROWS.map((r, i) => [r.text, vector(r, i, true)]));
    const both = scoreHeldOut(ROWS, "forum", OPTIONS, fp32, other);
    expect(both.threshold).toBe(alone.threshold);
    expect(both.scores).toEqual(alone.scores);
    expect(both.int8Scores?.map((s) => s.verdict)).not.toEqual(alone.scores.map((s) => s.verdict));
  });
});
