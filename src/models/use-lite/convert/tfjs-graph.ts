import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Reads a TF.js graph model (model.json + binary weight shards) into plain data.
 * Format: https://github.com/tensorflow/tfjs/blob/master/tfjs-converter/docs/ (GraphModel JSON,
 * a TF GraphDef in JSON with every Const's value moved into the weight shards).
 */
export type TfDtype = "float32" | "int32" | "bool";

export interface TfAttr {
  i?: string;
  f?: number;
  b?: boolean;
  /** Bytes, as base64 or as a number array depending on the TF.js converter version. */
  s?: string | number[];
  type?: number | string;
  list?: { i?: string[]; s?: string[] };
}

export interface TfNode {
  readonly name: string;
  readonly op: string;
  readonly input: readonly string[];
  readonly attr: Readonly<Record<string, TfAttr>>;
}

export interface TfWeight {
  readonly dtype: TfDtype;
  readonly shape: readonly number[];
  readonly data: Float32Array | Int32Array | Uint8Array;
}

export interface TfGraph {
  readonly nodes: readonly TfNode[];
  readonly weights: ReadonlyMap<string, TfWeight>;
}

interface ModelJson {
  modelTopology: { node: { name: string; op: string; input?: string[]; attr?: Record<string, TfAttr> }[] };
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string; quantization?: unknown }[];
  }[];
}

export async function readTfjsGraph(dir: string): Promise<TfGraph> {
  const json = JSON.parse(await readFile(join(dir, "model.json"), "utf8")) as ModelJson;
  const weights = new Map<string, TfWeight>();
  for (const group of json.weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(join(dir, p))));
    const buffer = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization !== undefined)
        throw new Error(`weight ${spec.name}: quantized weights unsupported`);
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const dtype = spec.dtype as TfDtype;
      const bytes = dtype === "bool" ? count : count * 4;
      // Copy into an aligned buffer: shard offsets need not be multiples of 4 in general.
      const slice = new Uint8Array(buffer.subarray(offset, offset + bytes));
      const data =
        dtype === "float32"
          ? new Float32Array(slice.buffer)
          : dtype === "int32"
            ? new Int32Array(slice.buffer)
            : dtype === "bool"
              ? slice
              : unsupported(spec.name, spec.dtype);
      weights.set(spec.name, { dtype, shape: spec.shape, data });
      offset += bytes;
    }
    if (offset !== buffer.length)
      throw new Error(`weight shards hold ${buffer.length} bytes, manifest ${offset}`);
  }
  const nodes = json.modelTopology.node.map((n) => ({
    name: n.name,
    op: n.op,
    input: n.input ?? [],
    attr: n.attr ?? {},
  }));
  return { nodes, weights };
}

function unsupported(name: string, dtype: string): never {
  throw new Error(`weight ${name}: dtype ${dtype} unsupported`);
}

/** "name:1" → ["name", 1]; a leading "^" marks a control dependency. */
export function parseInputRef(ref: string): { node: string; output: number; control: boolean } {
  const control = ref.startsWith("^");
  const bare = control ? ref.slice(1) : ref;
  const colon = bare.lastIndexOf(":");
  if (colon > 0 && /^\d+$/.test(bare.slice(colon + 1))) {
    return { node: bare.slice(0, colon), output: Number(bare.slice(colon + 1)), control };
  }
  return { node: bare, output: 0, control };
}

export const attrInt = (node: TfNode, name: string, fallback?: number): number => {
  const v = node.attr[name]?.i;
  if (v !== undefined) return Number(v);
  if (fallback !== undefined) return fallback;
  throw new Error(`${node.op} ${node.name}: missing attribute ${name}`);
};

export const attrBool = (node: TfNode, name: string): boolean => node.attr[name]?.b === true;

export const attrInts = (node: TfNode, name: string): number[] =>
  (node.attr[name]?.list?.i ?? []).map(Number);

export const attrString = (node: TfNode, name: string): string | undefined => {
  const s = node.attr[name]?.s;
  if (s === undefined) return undefined;
  return (typeof s === "string" ? Buffer.from(s, "base64") : Buffer.from(s)).toString("utf8");
};

/** TF DataType enum (types.proto): 1 float, 3 int32, 9 int64, 10 bool; names in some exports. */
export const attrDtype = (node: TfNode, name: string): "float" | "int" | "bool" => {
  const t = node.attr[name]?.type;
  if (t === 1 || t === "DT_FLOAT") return "float";
  if (t === 3 || t === 9 || t === "DT_INT32" || t === "DT_INT64") return "int";
  if (t === 10 || t === "DT_BOOL") return "bool";
  throw new Error(`${node.op} ${node.name}: unsupported ${name} ${String(t)}`);
};
