import { constInts, operand, type Translator } from "./graph-builder.js";
import { attrBool } from "./tfjs-graph.js";

/**
 * Reductions. At opset 17 only ReduceSum takes its axes as an input; ReduceMean, ReduceMax and
 * ReduceProd still take them as an attribute (that moved to an input in opset 18).
 */
function reduce(onnxOp: string, axesAsInput: boolean): Translator {
  return (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const axes = [...constInts(node, inputs, 1)];
    const keep = attrBool(node, "keep_dims");
    const rank = keep ? x.rank : x.rank - axes.length;
    const reducesLast = axes.some((a) => a === -1 || a === x.rank - 1);
    const last = reducesLast ? (keep ? 1 : undefined) : x.last;
    const shape = { rank, type: x.type, last: rank === 0 ? undefined : last };
    const keepdims = keep ? 1 : 0;
    return axesAsInput
      ? [b.value(onnxOp, [x.name, b.int64(axes)], shape, { keepdims })]
      : [b.value(onnxOp, [x.name], shape, { axes, keepdims })];
  };
}

export const reduceOps: Record<string, Translator> = {
  Sum: reduce("ReduceSum", true),
  Mean: reduce("ReduceMean", false),
  Max: reduce("ReduceMax", false),
  Min: reduce("ReduceMin", false),
  Prod: reduce("ReduceProd", false),
};
