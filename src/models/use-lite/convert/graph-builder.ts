import { type AttributeValue, DataType, type OnnxNode, type OnnxTensor } from "./onnx-model.js";
import type { Precision } from "./quantize.js";
import type { TfNode, TfWeight } from "./tfjs-graph.js";

/**
 * Every TF integer becomes int64 in ONNX: Reshape, Slice, ScatterND and friends want int64,
 * and the graph's int32 arithmetic (shapes, lengths, positions) never nears 2^31.
 */
export type ValueType = "float" | "int" | "bool";

/** A tensor in the ONNX graph. TF.js JSON carries no shapes, so ranks are tracked by hand. */
export interface Value {
  readonly name: string;
  readonly rank: number;
  readonly type: ValueType;
  /** Static size of the last axis when known: the length of a shape vector, say. */
  readonly last?: number | undefined;
}

/** An input of a TF node: a computed value or a constant the converter can read. */
export interface Operand {
  readonly value: Value;
  /** The constant's integer contents, when the operand is an integer Const. */
  readonly ints: readonly number[] | undefined;
  /** The raw constant, when the operand is a Const. */
  readonly weight: TfWeight | undefined;
  readonly node: string;
}

export type Translator = (node: TfNode, inputs: readonly Operand[], b: GraphBuilder) => Value[];

const ONNX_TYPE = { float: DataType.FLOAT, int: DataType.INT64, bool: DataType.BOOL } as const;

export class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers = new Map<string, OnnxTensor>();
  /** Name prefix of everything emitted for the TF node being translated. */
  scope = "";
  private counter = 0;

  /** How dense layers with constant weights are emitted (quantize.ts). */
  constructor(readonly precision: Precision = "fp32") {}

  /** Emits one ONNX node; returns its output names. */
  op(
    opType: string,
    inputs: readonly string[],
    attributes?: Record<string, AttributeValue>,
    outputs = 1,
  ): string[] {
    const name = `${this.scope}/${opType}_${this.counter++}`;
    const outs = Array.from({ length: outputs }, (_, i) => (outputs === 1 ? name : `${name}:${i}`));
    this.nodes.push({ opType, inputs, outputs: outs, name, ...(attributes ? { attributes } : {}) });
    return outs;
  }

  /** Single-output op as a Value. */
  value(
    opType: string,
    inputs: readonly string[],
    shape: { rank: number; type: ValueType; last?: number | undefined },
    attrs?: Record<string, AttributeValue>,
  ): Value {
    const [name] = this.op(opType, inputs, attrs);
    return { rank: shape.rank, type: shape.type, last: shape.last, name: name as string };
  }

  /** A shared int64 constant (axes, starts, shapes); scalar when dims is []. */
  int64(values: readonly number[], dims: readonly number[] = [values.length]): string {
    const name = `const/int64/${dims.join("x")}/${values.join("_")}`;
    if (!this.initializers.has(name)) {
      const raw = new Uint8Array(new BigInt64Array(values.map((v) => BigInt(v))).buffer);
      this.initializers.set(name, { name, dataType: DataType.INT64, dims, raw });
    }
    return name;
  }

  /** A TF Const as an initializer; int32 widens to int64 (see ValueType). */
  constant(name: string, weight: TfWeight): Value {
    const type: ValueType = weight.dtype === "float32" ? "float" : weight.dtype === "int32" ? "int" : "bool";
    if (!this.initializers.has(name)) {
      const raw =
        type === "int"
          ? new Uint8Array(new BigInt64Array(Array.from(weight.data, (v) => BigInt(v))).buffer)
          : new Uint8Array(weight.data.buffer, weight.data.byteOffset, weight.data.byteLength);
      this.initializers.set(name, { name, dataType: ONNX_TYPE[type], dims: weight.shape, raw });
    }
    return { name, rank: weight.shape.length, type, last: weight.shape.at(-1) };
  }

  /** A float initializer computed by the converter (e.g. a reshaped Conv2D kernel). */
  floats(name: string, data: Float32Array, dims: readonly number[]): string {
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.initializers.set(name, { name, dataType: DataType.FLOAT, dims, raw });
    return name;
  }

  onnxType(type: ValueType): (typeof ONNX_TYPE)[ValueType] {
    return ONNX_TYPE[type];
  }
}

export function fail(node: TfNode, why: string): never {
  throw new Error(`cannot convert ${node.op} ${node.name}: ${why}`);
}

/** The constant integer contents of operand i, or a clear error when it is computed. */
export function constInts(node: TfNode, inputs: readonly Operand[], i: number): readonly number[] {
  const ints = inputs[i]?.ints;
  if (ints === undefined) fail(node, `input ${i} must be a constant`);
  return ints;
}

export function operand(node: TfNode, inputs: readonly Operand[], i: number): Value {
  const op = inputs[i];
  if (op === undefined) fail(node, `missing input ${i}`);
  return op.value;
}
