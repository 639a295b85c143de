import { fail, type Operand, operand, type Translator, type Value } from "./graph-builder.js";
import { attrDtype, attrString, type TfNode } from "./tfjs-graph.js";

/** Element-wise TF ops: broadcasting binaries, comparisons, unaries and Cast. */

const broadcast = (a: Value, b: Value): number => Math.max(a.rank, b.rank);

function binary(onnxOp: string, result?: "bool"): Translator {
  return (node, inputs, b) => {
    const [x, y] = [operand(node, inputs, 0), operand(node, inputs, 1)];
    const last = x.rank >= y.rank ? x.last : y.last;
    return [b.value(onnxOp, [x.name, y.name], { rank: broadcast(x, y), type: result ?? x.type, last })];
  };
}

function unary(onnxOp: string): Translator {
  return (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    return [b.value(onnxOp, [x.name], x)];
  };
}

function biasAdd(node: TfNode, inputs: readonly Operand[], b: Parameters<Translator>[2]): Value[] {
  const format = attrString(node, "data_format");
  if (format !== undefined && format !== "NHWC") fail(node, `data_format ${format}`);
  return binary("Add")(node, inputs, b);
}

export const elementwiseOps: Record<string, Translator> = {
  Add: binary("Add"),
  AddV2: binary("Add"),
  BiasAdd: biasAdd,
  Sub: binary("Sub"),
  Mul: binary("Mul"),
  RealDiv: binary("Div"),
  Maximum: binary("Max"),
  Minimum: binary("Min"),
  Less: binary("Less", "bool"),
  Greater: binary("Greater", "bool"),
  Sin: unary("Sin"),
  Cos: unary("Cos"),
  Tanh: unary("Tanh"),
  Relu: unary("Relu"),
  Neg: unary("Neg"),
  Sqrt: unary("Sqrt"),
  LogicalNot: unary("Not"),
  Identity: unary("Identity"),
  // x·x rather than Pow(x, 2): the same float result TF computes.
  Square: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    return [b.value("Mul", [x.name, x.name], x)];
  },
  // TF's Rsqrt is 1/sqrt(x); ONNX has no fused op.
  Rsqrt: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const root = b.value("Sqrt", [x.name], x);
    return [b.value("Reciprocal", [root.name], x)];
  },
  // TF softmax is over the last axis; ONNX ≥ 13 takes the same single axis.
  Softmax: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    return [b.value("Softmax", [x.name], x, { axis: -1 })];
  },
  Cast: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const type = attrDtype(node, "DstT");
    return [b.value("Cast", [x.name], { ...x, type }, { to: b.onnxType(type) })];
  },
};
