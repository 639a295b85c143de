import { describe, expect, it } from "vitest";
import { type FitSet, outOfFold } from "../../../training/llm/cross-fit.js";
import type { Embedded } from "../../../training/llm/embed.js";
import { type Example, example } from "../../../training/llm/example.js";
import type { Featured } from "../../../training/llm/items.js";

const DIM = 16;

/** 12 families of 4 texts; a family's label is its parity, its vectors lean towards its label. */
function fitSet(flipFamily?: string): FitSet {
  const examples: Example[] = [];
  const embedded: Embedded[] = [];
  for (let f = 0; f < 12; f++) {
    for (let k = 0; k < 4; k++) {
      const group = `fam-${f}`;
      const label = ((f % 2 === 0) !== (group === flipFamily) ? 1 : 0) as 0 | 1;
      const text = `text ${f} ${k}`;
      examples.push(example(text, label, "synthetic", group));
      const lean = f % 2 === 0 ? 1 : -1;
      const vector = Float32Array.from({ length: 4 }, (_, i) =>
        i === 0 ? lean : Math.sin(f * 7 + k * 3 + i),
      );
      embedded.push({ windows: [{ text, start: 0, end: text.length }], vectors: [vector], planted: [] });
    }
  }
  const featured: Featured[] = examples.map((e) => ({
    example: e,
    whole: { index: new Int32Array(0), value: new Float32Array(0) },
    windows: [],
    planted: [],
  }));
  return { examples, featured, embedded };
}

const context = {
  dim: DIM,
  family: (e: Example) => e.group,
  // The n-gram side is not under test: a model with no weights gives every text logit 0.
  trainNgrams: () => ({ weights: new Float64Array(DIM), bias: 0 }),
  mlp: {
    hidden: 4,
    rate: 0.01,
    decay: 0,
    dropout: 0,
    batch: 8,
    maxEpochs: 4,
    patience: 4,
    seed: 1,
    averageFrom: 2,
  },
  log: () => {},
};

describe("outOfFold", () => {
  it("scores each family with a fit that never saw it", () => {
    const plain = outOfFold(fitSet(), context, 3, 11);
    // Flipping one family's labels changes the fits that train on it, never the one that scores it.
    const flipped = outOfFold(fitSet("fam-4"), context, 3, 11);
    const rows = fitSet().examples.map((e, i) => ({ family: e.group, a: plain.mlp[i], b: flipped.mlp[i] }));
    for (const r of rows.filter((r) => r.family === "fam-4")) expect(r.b).toBe(r.a);
    expect(rows.some((r) => r.family !== "fam-4" && r.a !== r.b)).toBe(true);
  });

  it("gives every example a finite score, and attack families score higher", () => {
    const set = fitSet();
    const { mlp, ngram } = outOfFold(set, context, 3, 11);
    expect(mlp.every(Number.isFinite)).toBe(true);
    expect(ngram.every((z) => z === 0)).toBe(true);
    const mean = (label: number) => {
      const xs = mlp.filter((_, i) => set.examples[i]?.label === label);
      return xs.reduce((s, x) => s + x, 0) / xs.length;
    };
    expect(mean(1)).toBeGreaterThan(mean(0));
  });
});
