import "../../models/ort-telemetry.js";
import * as ort from "onnxruntime-node";
import { DataType, encodeModel } from "../../models/use-lite/convert/onnx-model.js";
import type { VectorIndex } from "./index-file.js";
import type { BestMatch } from "./scan.js";

/** Scores query vectors against an index; the same answer as `bestMatch`, computed natively. */
export interface Scanner {
  best(queries: readonly Float32Array[]): Promise<BestMatch>;
  /**
   * `best` of each group, from one run: the index (4 MB for 2,000 rows) is read from memory once
   * for all of them instead of once per group. Each group's answer is the one `best` gives it
   * alone, to the bit (a MatMul row's dot products do not depend on the other rows).
   */
  bestEach(groups: readonly (readonly Float32Array[])[]): Promise<BestMatch[]>;
  close(): Promise<void>;
}

const NONE: BestMatch = { score: 0, row: -1, window: -1 };

/**
 * Where the first maximum of `scores[from, to)` is: in (window, row) order, as the JS scan finds
 * it. A function of its own, not a loop inside the per-call closure: onnxruntime's output arrays
 * do not always have the same hidden class, and the loop's optimised code, shared by every
 * call's new closure, was thrown out on a "wrong map" about once every three input-checks
 * (`node --trace-deopt`: 758–760 times in 2,400 checks), each time running the scan of ~2,000 scores
 * per window unoptimised until it was compiled again.
 */
function firstMax(scores: Float32Array, from: number, to: number): number {
  let top = from;
  for (let k = from + 1; k < to; k++) if ((scores[k] as number) > (scores[top] as number)) top = k;
  return top;
}

/**
 * The flat scan as one ONNX MatMul (queries × indexᵀ) on onnxruntime's CPU kernels. The JS loop
 * in scan.ts cost 2.5 ms of the server's main thread per input-check (four query windows × 925
 * rows × 512 dimensions, under --cpu-prof); MLAS's vectorised GEMM does the same in a few tens of
 * microseconds, so the scan stops being the largest item in a full check. The index is an
 * initializer of a model built in memory: nothing is written to disk.
 */
export async function createNativeScanner(index: VectorIndex): Promise<Scanner> {
  const { rows, dim, vectors } = index;
  if (rows === 0)
    return {
      best: async () => NONE,
      bestEach: async (groups) => groups.map(() => NONE),
      close: async () => {},
    };
  // Stored transposed (dim × rows) so the graph is a plain MatMul with no Transpose node.
  const transposed = new Float32Array(dim * rows);
  for (let r = 0; r < rows; r++)
    for (let j = 0; j < dim; j++) transposed[j * rows + r] = vectors[r * dim + j] as number;
  const model = encodeModel(
    {
      name: "vector-scan",
      nodes: [{ opType: "MatMul", inputs: ["queries", "index"], outputs: ["scores"], name: "scan" }],
      initializers: [
        {
          name: "index",
          dataType: DataType.FLOAT,
          dims: [dim, rows],
          raw: new Uint8Array(transposed.buffer),
        },
      ],
      inputs: [{ name: "queries", dataType: DataType.FLOAT, shape: ["windows", dim] }],
      outputs: [{ name: "scores", dataType: DataType.FLOAT, shape: ["windows", rows] }],
    },
    17,
    "vector-scan",
  );
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
  });

  const bestEach = async (groups: readonly (readonly Float32Array[])[]): Promise<BestMatch[]> => {
    const total = groups.reduce((n, g) => n + g.length, 0);
    if (total === 0) return groups.map(() => NONE);
    const flat = new Float32Array(total * dim);
    let at = 0;
    for (const queries of groups)
      for (const q of queries) {
        if (q.length !== dim) throw new Error(`vector: a query has ${q.length} dimensions, the index ${dim}`);
        flat.set(q, at++ * dim);
      }
    const out = await session.run({ queries: new ort.Tensor("float32", flat, [total, dim]) });
    const scores = out.scores?.data as Float32Array;
    let first = 0;
    return groups.map((queries) => {
      if (queries.length === 0) return NONE;
      const from = first * rows;
      const top = firstMax(scores, from, (first + queries.length) * rows);
      first += queries.length;
      return {
        score: scores[top] as number,
        row: (top - from) % rows,
        window: Math.floor((top - from) / rows),
      };
    });
  };
  const best = async (queries: readonly Float32Array[]): Promise<BestMatch> =>
    (await bestEach([queries]))[0] as BestMatch;
  return { best, bestEach, close: () => session.release() };
}
