import type { VectorIndex } from "./index-file.js";

export interface BestMatch {
  /** Best cosine over every (query window, index row) pair; 0 when there is nothing to compare. */
  readonly score: number;
  /** -1 when there was nothing to compare (an empty text, an empty index). */
  readonly row: number;
  readonly window: number;
}

/**
 * Flat exhaustive scan: exact, and a few thousand rows need no approximate search. Four rows share
 * each query load and keep four independent sums: 475 µs against 770 µs for one row at a time with
 * four sums (1,000 rows, one window, a loaded 2-core box). Rows and queries are unit vectors, so
 * the dot product is the cosine. Timings: training/vector/bench-scan.ts.
 */
export function bestMatch(index: VectorIndex, queries: readonly Float32Array[]): BestMatch {
  const { rows, dim, vectors: m } = index;
  let top = Number.NEGATIVE_INFINITY;
  let row = -1;
  let window = -1;
  for (let w = 0; w < queries.length; w++) {
    const q = queries[w] as Float32Array;
    if (q.length !== dim) throw new Error(`vector: a query has ${q.length} dimensions, the index ${dim}`);
    let r = 0;
    for (; r + 4 <= rows; r += 4) {
      const o0 = r * dim;
      const o1 = o0 + dim;
      const o2 = o1 + dim;
      const o3 = o2 + dim;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let j = 0; j < dim; j++) {
        const x = q[j] as number;
        a0 += x * (m[o0 + j] as number);
        a1 += x * (m[o1 + j] as number);
        a2 += x * (m[o2 + j] as number);
        a3 += x * (m[o3 + j] as number);
      }
      const a = Math.max(a0, a1, a2, a3);
      if (a > top) {
        top = a;
        row = r + (a === a0 ? 0 : a === a1 ? 1 : a === a2 ? 2 : 3);
        window = w;
      }
    }
    for (; r < rows; r++) {
      let a = 0;
      for (let j = 0, o = r * dim; j < dim; j++) a += (q[j] as number) * (m[o + j] as number);
      if (a > top) {
        top = a;
        row = r;
        window = w;
      }
    }
  }
  return row < 0 ? { score: 0, row, window } : { score: top, row, window };
}
