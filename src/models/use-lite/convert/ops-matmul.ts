import { fail, type GraphBuilder, operand, type Translator, type Value } from "./graph-builder.js";
import { denseMatMul } from "./quantize.js";
import { attrBool, attrInts, attrString } from "./tfjs-graph.js";

/** MatMul, BatchMatMul (with adjoint flags) and the 1×1 Conv2D that the encoder uses as a dense layer. */

/** Swaps the last two axes, which is what TF's transpose_a/adj_x flags ask for. */
function swapLastTwo(b: GraphBuilder, x: Value): Value {
  const perm = Array.from({ length: x.rank }, (_, i) => i);
  perm[x.rank - 2] = x.rank - 1;
  perm[x.rank - 1] = x.rank - 2;
  return b.value("Transpose", [x.name], { rank: x.rank, type: x.type }, { perm });
}

function matmul(flagA: string, flagB: string): Translator {
  return (node, inputs, b) => {
    let x = operand(node, inputs, 0);
    const weight = inputs[1]?.weight;
    // A dense layer (a constant [in, out] matrix): the one kind of MatMul the int8 encoder quantises.
    if (weight?.dtype === "float32" && weight.shape.length === 2 && !attrBool(node, flagB) && inputs[1]) {
      if (attrBool(node, flagA)) x = swapLastTwo(b, x);
      const [rows, cols] = weight.shape as [number, number];
      return [denseMatMul(b, x, weight.data as Float32Array, [rows, cols], inputs[1].node)];
    }
    let y = operand(node, inputs, 1);
    if (x.rank < 2 || y.rank < 2) fail(node, "operands must have rank ≥ 2");
    if (attrBool(node, flagA)) x = swapLastTwo(b, x);
    if (attrBool(node, flagB)) y = swapLastTwo(b, y);
    return [
      b.value("MatMul", [x.name, y.name], { rank: Math.max(x.rank, y.rank), type: x.type, last: y.last }),
    ];
  };
}

// A 1×1 convolution with unit strides over NHWC input is x · W on the channel axis; the kernel
// [1, 1, Cin, Cout] has the same bytes as a [Cin, Cout] matrix, so only its dims change.
const conv2d: Translator = (node, inputs, b) => {
  const x = operand(node, inputs, 0);
  const kernel = inputs[1];
  const weight = kernel?.weight;
  if (!kernel || !weight) fail(node, "the kernel must be a constant");
  const [kh, kw, cin, cout] = weight.shape;
  if (kh !== 1 || kw !== 1 || cin === undefined || cout === undefined)
    fail(node, "only 1×1 kernels are supported");
  const unit = (name: string): boolean => attrInts(node, name).every((v) => v === 1);
  if (!unit("strides") || !unit("dilations")) fail(node, "only unit strides and dilations are supported");
  const format = attrString(node, "data_format");
  if (format !== undefined && format !== "NHWC") fail(node, `data_format ${format}`);
  return [denseMatMul(b, x, weight.data as Float32Array, [cin, cout], `${kernel.node}/as_matrix`)];
};

export const matmulOps: Record<string, Translator> = {
  MatMul: matmul("transpose_a", "transpose_b"),
  BatchMatMul: matmul("adj_x", "adj_y"),
  BatchMatMulV2: matmul("adj_x", "adj_y"),
  Conv2D: conv2d,
};
