import { describe, expect, it } from "vitest";
import type { VectorIndex } from "../../../src/guardrails/vector/index-file.js";
import { createNativeScanner } from "../../../src/guardrails/vector/native-scan.js";
import { bestMatch } from "../../../src/guardrails/vector/scan.js";

const DIM = 512;

/** A seeded Park–Miller generator: the vectors are the same on every run. */
function createRng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

function unitVectors(count: number, next: () => number): Float32Array[] {
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: DIM }, () => next() - 0.5);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function indexOf(rows: Float32Array[]): VectorIndex {
  const vectors = new Float32Array(rows.length * DIM);
  for (const [i, r] of rows.entries()) vectors.set(r, i * DIM);
  return { rows: rows.length, dim: DIM, vectors, ids: rows.map((_, i) => `row-${i}`) };
}

describe("native vector scan", () => {
  it("finds the same best row, window and cosine as the JS scan", async () => {
    const rng = createRng(7);
    // 103 rows: not a multiple of the JS scan's 4-row unrolling, so its tail loop is compared too.
    const index = indexOf(unitVectors(103, rng));
    const scanner = await createNativeScanner(index);
    try {
      for (let trial = 0; trial < 20; trial++) {
        const queries = unitVectors(1 + (trial % 5), rng);
        const [js, native] = [bestMatch(index, queries), await scanner.best(queries)];
        expect(native.row).toBe(js.row);
        expect(native.window).toBe(js.window);
        expect(native.score).toBeCloseTo(js.score, 5);
      }
    } finally {
      await scanner.close();
    }
  });

  it("finds an exact copy of a row at cosine 1 in whichever window holds it", async () => {
    const rows = unitVectors(40, createRng(3));
    const scanner = await createNativeScanner(indexOf(rows));
    const queries = [...unitVectors(2, createRng(4)), rows[17] as Float32Array];
    const best = await scanner.best(queries);
    await scanner.close();
    expect(best).toMatchObject({ row: 17, window: 2 });
    expect(best.score).toBeCloseTo(1, 5);
  });

  it("answers each group of bestEach from one run exactly as best answers it alone", async () => {
    const rng = createRng(11);
    // The bundled index's shape (1,992 rows): the kernel's blocking, not the values, decides
    // whether a row's dot products could depend on the rows run beside it.
    const scanner = await createNativeScanner(indexOf(unitVectors(1992, rng)));
    try {
      for (const sizes of [[1], [2, 5], [1, 1], [3, 0, 4], [0], [6, 2, 1]]) {
        const groups = sizes.map((n) => unitVectors(n, rng));
        const alone = await Promise.all(groups.map((g) => scanner.best(g)));
        // Bit for bit: the vector guardrail's score and verdict must not move with the batching.
        expect(await scanner.bestEach(groups)).toEqual(alone);
      }
      expect(await scanner.bestEach([])).toEqual([]);
    } finally {
      await scanner.close();
    }
  });

  it("answers score 0 and row -1 for no queries or an empty index, and rejects a wrong width", async () => {
    const empty = await createNativeScanner({ rows: 0, dim: DIM, vectors: new Float32Array(0), ids: [] });
    expect(await empty.best(unitVectors(1, createRng(1)))).toEqual({ score: 0, row: -1, window: -1 });
    expect(await empty.bestEach([unitVectors(1, createRng(1))])).toEqual([{ score: 0, row: -1, window: -1 }]);
    const scanner = await createNativeScanner(indexOf(unitVectors(3, createRng(2))));
    expect(await scanner.best([])).toEqual({ score: 0, row: -1, window: -1 });
    await expect(scanner.best([new Float32Array(8)])).rejects.toThrow(/8 dimensions, the index 512/);
    await scanner.close();
  });
});
