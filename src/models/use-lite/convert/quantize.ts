import type { GraphBuilder, Value } from "./graph-builder.js";
import { DataType } from "./onnx-model.js";

/**
 * The int8 encoder's dense layers: weights quantised per output channel (symmetric int8, one
 * scale per column), activations quantised per run by DynamicQuantizeLinear (uint8 with a zero
 * point), an integer MatMul, then one float multiply by both scales. onnxruntime fuses this
 * five-node pattern into one DynamicQuantizeMatMul kernel (graph optimisation level "extended" or
 * above), the form its own `quantize_dynamic` writes:
 * https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html
 *
 * Version 2 is the same graph run one text at a time (encoder.ts), so each text's activations are
 * quantised over its own tokens: a new id, so no cache keeps vectors embedded in shared runs.
 */
export const QUANTIZER_VERSION = "int8-per-channel/2 range=63 one-text-per-run";

/**
 * Weights use 7 of the 8 bits (±63, onnxruntime's `reduce_range`): x86 CPUs without VNNI multiply
 * uint8 by int8 in pairs summed into int16 (VPMADDUBSW), and 2 × 255 × 127 overflows it where
 * 2 × 255 × 63 does not, so every CPU computes the same vectors. Measured against ±127 on a VNNI
 * CPU (200 texts): mean cosine to fp32 0.9982 against 0.9991, worst 0.9964 against 0.9980.
 */
export const WEIGHT_RANGE = 63;

export type Precision = "fp32" | "int8";

/** Symmetric per-column int8: q = round(w / s), s = max|column| / WEIGHT_RANGE (1 for an all-zero column). */
export function quantizePerChannel(
  weight: Float32Array,
  rows: number,
  cols: number,
): { q: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const v = Math.abs(weight[r * cols + c] as number);
      if (v > (scales[c] as number)) scales[c] = v;
    }
  for (let c = 0; c < cols; c++)
    scales[c] = (scales[c] as number) > 0 ? (scales[c] as number) / WEIGHT_RANGE : 1;
  const q = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const v = Math.round((weight[r * cols + c] as number) / (scales[c] as number));
      q[r * cols + c] = Math.max(-WEIGHT_RANGE, Math.min(WEIGHT_RANGE, v));
    }
  return { q, scales };
}

/** x · W for a constant [rows, cols] W: a float MatMul, or the integer pattern above. */
export function denseMatMul(
  b: GraphBuilder,
  x: Value,
  weight: Float32Array,
  dims: readonly [number, number],
  name: string,
): Value {
  const [rows, cols] = dims;
  const shape = { rank: x.rank, type: "float", last: cols } as const;
  if (b.precision === "fp32") return b.value("MatMul", [x.name, b.floats(name, weight, dims)], shape);
  const { q, scales } = quantizePerChannel(weight, rows, cols);
  const qName = `${name}/int8`;
  b.initializers.set(qName, { name: qName, dataType: DataType.INT8, dims, raw: new Uint8Array(q.buffer) });
  const scaleName = b.floats(`${name}/int8_scale`, scales, [cols]);
  const [xq, xScale, xZero] = b.op("DynamicQuantizeLinear", [x.name], undefined, 3) as [
    string,
    string,
    string,
  ];
  const [product] = b.op("MatMulInteger", [xq, qName, xZero]) as [string];
  const [asFloat] = b.op("Cast", [product], { to: DataType.FLOAT }) as [string];
  const [scale] = b.op("Mul", [xScale, scaleName]) as [string];
  return b.value("Mul", [asFloat, scale], shape);
}
