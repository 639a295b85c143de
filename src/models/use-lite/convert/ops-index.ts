import { constInts, fail, operand, type Translator } from "./graph-builder.js";
import { DataType } from "./onnx-model.js";
import { attrInt } from "./tfjs-graph.js";

/** Indexing: GatherV2, GatherNd, ScatterNd and single-input Where. */

export const indexOps: Record<string, Translator> = {
  GatherV2: (node, inputs, b) => {
    const [params, indices] = [operand(node, inputs, 0), operand(node, inputs, 1)];
    const axis = constInts(node, inputs, 2)[0] ?? fail(node, "axis must be a constant scalar");
    if (attrInt(node, "batch_dims", 0) !== 0) fail(node, "batch_dims is unsupported");
    const rank = params.rank - 1 + indices.rank;
    const gathersLast = axis === -1 || axis === params.rank - 1;
    const last = gathersLast ? (indices.rank > 0 ? indices.last : undefined) : params.last;
    return [b.value("Gather", [params.name, indices.name], { rank, type: params.type, last }, { axis })];
  },

  // Output rank: indices' rank − 1 + the params axes left after indexing the leading ones.
  GatherNd: (node, inputs, b) => {
    const [params, indices] = [operand(node, inputs, 0), operand(node, inputs, 1)];
    const depth =
      indices.last ?? fail(node, "the index depth (last axis of indices) is not known statically");
    const rank = indices.rank - 1 + params.rank - depth;
    const last = depth < params.rank ? params.last : undefined;
    return [b.value("GatherND", [params.name, indices.name], { rank, type: params.type, last })];
  },

  // TF ScatterNd scatters into zeros of the given shape; ONNX ScatterND needs that base tensor
  // spelled out. Duplicate indices would add in TF and overwrite in ONNX, but every ScatterNd in
  // this graph writes the distinct positions of real tokens.
  ScatterNd: (node, inputs, b) => {
    const [indices, updates, shape] = [0, 1, 2].map((i) => operand(node, inputs, i));
    if (!indices || !updates || !shape) fail(node, "ScatterNd needs three inputs");
    if (updates.type !== "float") fail(node, "only float updates are supported");
    if (shape.last === undefined) fail(node, "the output shape's length is not known statically");
    const zero = { name: "zero", dataType: DataType.FLOAT, dims: [1], raw: new Uint8Array(4) };
    const base = b.value(
      "ConstantOfShape",
      [shape.name],
      { rank: shape.last, type: "float" },
      { value: zero },
    );
    return [b.value("ScatterND", [base.name, indices.name, updates.name], { ...base, last: updates.last })];
  },

  // One-input Where lists the coordinates of true elements as [count, rank]; ONNX NonZero gives
  // the transpose, [rank, count], in the same row-major order.
  Where: (node, inputs, b) => {
    if (inputs.length !== 1) fail(node, "only the one-input form (coordinates of true) is supported");
    const x = operand(node, inputs, 0);
    const nonzero = b.value("NonZero", [x.name], { rank: 2, type: "int" });
    return [b.value("Transpose", [nonzero.name], { rank: 2, type: "int", last: x.rank }, { perm: [1, 0] })];
  },
};
