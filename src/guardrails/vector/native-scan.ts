import * as ort from "onnxruntime-node";
import { DataType, encodeModel } from "../../models/use-lite/convert/onnx-model.js";
import type { VectorIndex } from "./index-file.js";
import type { BestMatch } from "./scan.js";

/** Scores query vectors against an index; the same answer as `bestMatch`, computed natively. */
export interface Scanner {
  best(queries: readonly Float32Array[]): Promise<BestMatch>;
  close(): Promise<void>;
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
  if (rows === 0) return { best: async () => ({ score: 0, row: -1, window: -1 }), close: async () => {} };
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

  const best = async (queries: readonly Float32Array[]): Promise<BestMatch> => {
    if (queries.length === 0) return { score: 0, row: -1, window: -1 };
    const flat = new Float32Array(queries.length * dim);
    queries.forEach((q, w) => {
      if (q.length !== dim) throw new Error(`vector: a query has ${q.length} dimensions, the index ${dim}`);
      flat.set(q, w * dim);
    });
    const out = await session.run({ queries: new ort.Tensor("float32", flat, [queries.length, dim]) });
    const scores = out.scores?.data as Float32Array;
    let top = 0;
    for (let k = 1; k < scores.length; k++) if ((scores[k] as number) > (scores[top] as number)) top = k;
    return { score: scores[top] as number, row: top % rows, window: Math.floor(top / rows) };
  };
  return { best, close: () => session.release() };
}
