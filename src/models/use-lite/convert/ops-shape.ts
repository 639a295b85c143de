import { constInts, fail, operand, type Translator, type Value } from "./graph-builder.js";
import { attrInt, attrInts } from "./tfjs-graph.js";

/** Shape plumbing: Shape, Reshape, ExpandDims, Squeeze, Pack, ConcatV2, Transpose, SplitV, Range. */

const scalarAxis = (axis: number | undefined, node: Parameters<Translator>[0]): number =>
  axis ?? fail(node, "axis must be a constant scalar");

export const shapeOps: Record<string, Translator> = {
  Shape: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    return [b.value("Shape", [x.name], { rank: 1, type: "int", last: x.rank })];
  },

  // allowzero=1: TF reads a 0 in a shape as a zero-size dimension, ONNX by default as "copy
  // the input's". Without it a batch with no tokens at all breaks the FFN reshapes.
  Reshape: (node, inputs, b) => {
    const [x, shape] = [operand(node, inputs, 0), operand(node, inputs, 1)];
    if (shape.last === undefined) fail(node, "the target shape's length is not known statically");
    return [b.value("Reshape", [x.name, shape.name], { rank: shape.last, type: x.type }, { allowzero: 1 })];
  },

  // ONNX Unsqueeze counts a negative axis from the output rank, exactly like TF ExpandDims.
  ExpandDims: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const axis = scalarAxis(constInts(node, inputs, 1)[0], node);
    const last = axis === -1 || axis === x.rank ? 1 : x.last;
    return [b.value("Unsqueeze", [x.name, b.int64([axis])], { rank: x.rank + 1, type: x.type, last })];
  },

  Squeeze: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const axes = attrInts(node, "squeeze_dims");
    if (axes.length === 0) fail(node, "squeezing every unit axis needs static shapes");
    const rank = x.rank - axes.length;
    const dropsLast = axes.some((a) => a === -1 || a === x.rank - 1);
    return [
      b.value("Squeeze", [x.name, b.int64(axes)], {
        rank,
        type: x.type,
        last: dropsLast ? undefined : x.last,
      }),
    ];
  },

  Pack: (node, inputs, b) => {
    const axis = attrInt(node, "axis", 0);
    const values = inputs.map((_, i) => operand(node, inputs, i));
    const first = values[0] ?? fail(node, "no inputs");
    const expanded = values.map((v) => b.value("Unsqueeze", [v.name, b.int64([axis])], v).name);
    const rank = first.rank + 1;
    const last = axis === -1 || axis === first.rank ? values.length : first.last;
    return [b.value("Concat", expanded, { rank, type: first.type, last }, { axis })];
  },

  // The axis is the last input.
  ConcatV2: (node, inputs, b) => {
    const axis = scalarAxis(constInts(node, inputs, inputs.length - 1)[0], node);
    const values = inputs.slice(0, -1).map((_, i) => operand(node, inputs, i));
    const first = values[0] ?? fail(node, "no inputs");
    const alongLast = axis === -1 || axis === first.rank - 1;
    const lasts = values.map((v) => v.last);
    const last = alongLast
      ? lasts.every((l) => l !== undefined)
        ? lasts.reduce<number>((a, l) => a + (l ?? 0), 0)
        : undefined
      : first.last;
    return [
      b.value(
        "Concat",
        values.map((v) => v.name),
        { rank: first.rank, type: first.type, last },
        { axis },
      ),
    ];
  },

  Transpose: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const perm = constInts(node, inputs, 1);
    const last = perm.at(-1) === x.rank - 1 ? x.last : undefined;
    return [b.value("Transpose", [x.name], { rank: x.rank, type: x.type, last }, { perm: [...perm] })];
  },

  SplitV: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const sizes = constInts(node, inputs, 1);
    const axis = scalarAxis(constInts(node, inputs, 2)[0], node);
    if (sizes.some((s) => s < 0)) fail(node, "an inferred (-1) split size is unsupported");
    const alongLast = axis === -1 || axis === x.rank - 1;
    const outs = b.op("Split", [x.name, b.int64(sizes)], { axis }, sizes.length);
    return outs.map(
      (name, i): Value => ({ name, rank: x.rank, type: x.type, last: alongLast ? sizes[i] : x.last }),
    );
  },

  Range: (node, inputs, b) => {
    const [start, limit, delta] = [0, 1, 2].map((i) => operand(node, inputs, i));
    if (!start || !limit || !delta) fail(node, "Range needs three inputs");
    return [b.value("Range", [start.name, limit.name, delta.name], { rank: 1, type: start.type })];
  },
};
