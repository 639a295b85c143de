import { constInts, fail, operand, type Translator } from "./graph-builder.js";
import { attrInt } from "./tfjs-graph.js";

/**
 * TF StridedSlice and Slice as ONNX Slice (+ Squeeze for shrunk axes). Begin, end and strides
 * must be constants, which lets the masks be resolved here instead of in the graph.
 * Mask semantics: https://www.tensorflow.org/api_docs/python/tf/strided_slice
 */

const INT64_MAX = Number.MAX_SAFE_INTEGER; // ORT clamps ends to the dimension; any huge value works.
const INT64_MIN = Number.MIN_SAFE_INTEGER;

const bit = (mask: number, i: number): boolean => ((mask >> i) & 1) === 1;

/** Static length of a sliced 1-D vector, when its input length is known (Python slice rules). */
function slicedLength(
  length: number | undefined,
  start: number,
  end: number,
  step: number,
): number | undefined {
  if (length === undefined) return undefined;
  const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);
  const norm = (v: number): number => (v < 0 ? v + length : v);
  const s = step > 0 ? clamp(norm(start), 0, length) : clamp(norm(start), -1, length - 1);
  const e = step > 0 ? clamp(norm(end), 0, length) : clamp(norm(end), -1, length - 1);
  return Math.max(0, Math.ceil((e - s) / step));
}

export const sliceOps: Record<string, Translator> = {
  StridedSlice: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const [begin, end, strides] = [1, 2, 3].map((i) => constInts(node, inputs, i));
    if (!begin || !end || !strides) fail(node, "missing begin, end or strides");
    if (attrInt(node, "ellipsis_mask", 0) !== 0 || attrInt(node, "new_axis_mask", 0) !== 0) {
      fail(node, "ellipsis_mask and new_axis_mask are unsupported");
    }
    const [beginMask, endMask, shrinkMask] = ["begin_mask", "end_mask", "shrink_axis_mask"].map((a) =>
      attrInt(node, a, 0),
    ) as [number, number, number];
    const starts: number[] = [];
    const ends: number[] = [];
    const shrunk: number[] = [];
    begin.forEach((b0, i) => {
      const step = strides[i] ?? 1;
      if (bit(shrinkMask, i)) {
        // A shrunk axis takes exactly one element; begin = -1 means "the last one".
        starts.push(b0);
        ends.push(b0 === -1 ? INT64_MAX : b0 + 1);
        shrunk.push(i);
        return;
      }
      starts.push(bit(beginMask, i) ? (step > 0 ? 0 : INT64_MAX) : b0);
      ends.push(bit(endMask, i) ? (step > 0 ? INT64_MAX : INT64_MIN) : (end[i] ?? INT64_MAX));
    });
    const axes = starts.map((_, i) => i);
    const steps = axes.map((i) => strides[i] ?? 1);
    const sliced = b.value(
      "Slice",
      [x.name, b.int64(starts), b.int64(ends), b.int64(axes), b.int64(steps)],
      // Only a 1-D input has a last axis that this slice can change and we can still size.
      {
        rank: x.rank,
        type: x.type,
        last: x.rank === 1 ? slicedLength(x.last, starts[0] ?? 0, ends[0] ?? 0, steps[0] ?? 1) : x.last,
      },
    );
    if (shrunk.length === 0) return [sliced];
    const rank = x.rank - shrunk.length;
    const last = shrunk.includes(x.rank - 1) ? undefined : sliced.last;
    return [b.value("Squeeze", [sliced.name, b.int64(shrunk)], { rank, type: x.type, last })];
  },

  // Slice(x, begin, size): size -1 means "to the end".
  Slice: (node, inputs, b) => {
    const x = operand(node, inputs, 0);
    const [begin, size] = [constInts(node, inputs, 1), constInts(node, inputs, 2)];
    const ends = begin.map((s, i) => ((size[i] ?? -1) < 0 ? INT64_MAX : s + (size[i] ?? 0)));
    const axes = begin.map((_, i) => i);
    const last = x.rank === 1 ? slicedLength(x.last, begin[0] ?? 0, ends[0] ?? INT64_MAX, 1) : x.last;
    return [
      b.value("Slice", [x.name, b.int64(begin), b.int64(ends), b.int64(axes)], {
        rank: x.rank,
        type: x.type,
        last,
      }),
    ];
  },
};
