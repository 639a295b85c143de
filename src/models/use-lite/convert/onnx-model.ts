import { ProtoWriter } from "./proto-writer.js";

/**
 * The slice of the ONNX IR the converter emits, and its protobuf encoding.
 * Field numbers: https://github.com/onnx/onnx/blob/main/onnx/onnx.proto
 */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, BOOL: 9 } as const;
export type DataTypeCode = (typeof DataType)[keyof typeof DataType];

export type AttributeValue = number | string | readonly number[] | OnnxTensor;

export interface OnnxTensor {
  readonly name: string;
  readonly dataType: DataTypeCode;
  readonly dims: readonly number[];
  /** Little-endian raw bytes, as TensorProto.raw_data stores them. */
  readonly raw: Uint8Array;
}

export interface OnnxNode {
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly name: string;
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
}

export interface OnnxValueInfo {
  readonly name: string;
  readonly dataType: DataTypeCode;
  /** A string is a symbolic dimension (e.g. "batch"). */
  readonly shape: readonly (number | string)[];
}

export interface OnnxGraph {
  readonly name: string;
  readonly nodes: readonly OnnxNode[];
  readonly initializers: readonly OnnxTensor[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
}

/** IR version 8 is the one that goes with opset 17. */
export function encodeModel(graph: OnnxGraph, opset: number, producerVersion: string): Uint8Array {
  const model = new ProtoWriter()
    .varint(1, 8)
    .string(2, "guardrail-use-lite-converter")
    .string(3, producerVersion);
  model.message(7, (g) => writeGraph(g, graph));
  model.message(8, (o) => o.string(1, "").varint(2, opset));
  return model.finish();
}

function writeGraph(w: ProtoWriter, graph: OnnxGraph): void {
  for (const node of graph.nodes) w.message(1, (n) => writeNode(n, node));
  w.string(2, graph.name);
  for (const t of graph.initializers) w.message(5, (m) => writeTensor(m, t));
  for (const v of graph.inputs) w.message(11, (m) => writeValueInfo(m, v));
  for (const v of graph.outputs) w.message(12, (m) => writeValueInfo(m, v));
}

function writeNode(w: ProtoWriter, node: OnnxNode): void {
  for (const i of node.inputs) w.string(1, i);
  for (const o of node.outputs) w.string(2, o);
  w.string(3, node.name).string(4, node.opType);
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    w.message(5, (a) => writeAttribute(a, name, value));
  }
}

// AttributeProto.type codes: INT 2, STRING 3, TENSOR 4, INTS 7. No op here needs a float
// attribute, so numbers are always ints (a float 1.0 would otherwise be ambiguous).
function writeAttribute(w: ProtoWriter, name: string, value: AttributeValue): void {
  w.string(1, name);
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name}: ${value} is not an integer`);
    w.varint(3, value).varint(20, 2);
  } else if (typeof value === "string") {
    w.string(4, value).varint(20, 3);
  } else if (Array.isArray(value)) {
    w.packedInts(8, value).varint(20, 7);
  } else {
    w.message(5, (t) => writeTensor(t, value as OnnxTensor)).varint(20, 4);
  }
}

function writeTensor(w: ProtoWriter, t: OnnxTensor): void {
  if (t.dims.length > 0) w.packedInts(1, t.dims);
  w.varint(2, t.dataType).string(8, t.name).bytes(9, t.raw);
}

function writeValueInfo(w: ProtoWriter, v: OnnxValueInfo): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.varint(1, v.dataType);
      tensor.message(2, (shape) => {
        for (const d of v.shape) {
          shape.message(1, (dim) => (typeof d === "number" ? dim.varint(1, d) : dim.string(2, d)));
        }
      });
    }),
  );
}
