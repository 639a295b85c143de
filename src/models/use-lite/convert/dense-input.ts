import type { GraphBuilder, Value } from "./graph-builder.js";
import { parseInputRef, type TfGraph, type TfNode } from "./tfjs-graph.js";

/**
 * Replaces USE-lite's sparse input with a dense one.
 *
 * TF.js feeds `indices` [N, 2] (row, position) and `values` [N] token ids. The graph drops
 * positions ≥ 128, builds a dense [batch, len] grid padded with −1 (SparseToDense), and looks up
 * embeddings of the sparse values in row-major order. Here the caller passes that grid directly:
 * `ids` [batch, seq] int32, padded with −1 after each row's last token. The two TF tensors the
 * rest of the graph reads — the grid and the looked-up embeddings — are rebuilt from `ids`, so
 * the sparse front end (ClipToMaxLength, SparseToDense) is never translated.
 */
export const IDS_INPUT = "ids";
export const PAD_ID = -1;

export interface DenseSeeds {
  /** TF tensor refs ("node:output") that are produced by the replacement, not by translation. */
  readonly seeds: Map<string, Value>;
  /** Positions at and beyond this index are dropped, as the original graph drops them. */
  readonly maxLength: number | undefined;
}

export function seedDenseInput(graph: TfGraph, b: GraphBuilder): DenseSeeds {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const sparse = graph.nodes.filter((n) => n.op === "SparseToDense");
  const toDense = sparse[0];
  if (!toDense || sparse.length !== 1)
    throw new Error(`expected one SparseToDense node, found ${sparse.length}`);
  const [, , valuesRef, defaultRef] = toDense.input;
  const defaultValue = constantInt(graph, defaultRef);
  if (defaultValue !== PAD_ID) throw new Error(`SparseToDense pads with ${defaultValue}, expected ${PAD_ID}`);
  const lookup = graph.nodes.find((n) => n.op === "GatherV2" && n.input[1] === valuesRef);
  const table = lookup ? graph.weights.get(parseInputRef(lookup.input[0] ?? "").node) : undefined;
  if (!lookup || !table) throw new Error("no embedding lookup of the sparse token ids found");
  const maxLength = findClipLength(toDense, byName, graph);

  b.scope = "dense_input";
  const ids64 = b.value("Cast", [IDS_INPUT], { rank: 2, type: "int" }, { to: b.onnxType("int") });
  const grid =
    maxLength === undefined
      ? ids64
      : b.value("Slice", [ids64.name, b.int64([0]), b.int64([maxLength]), b.int64([1])], ids64);
  // Real tokens in row-major order: the order in which TF.js lists the sparse values.
  const isToken = b.value("Greater", [grid.name, b.int64([PAD_ID], [])], { rank: 2, type: "bool" });
  const nonzero = b.value("NonZero", [isToken.name], { rank: 2, type: "int" });
  const coords = b.value("Transpose", [nonzero.name], { rank: 2, type: "int", last: 2 }, { perm: [1, 0] });
  const tokenIds = b.value("GatherND", [grid.name, coords.name], { rank: 1, type: "int" });
  const tableValue = b.constant(parseInputRef(lookup.input[0] ?? "").node, table);
  const vectors = b.value(
    "Gather",
    [tableValue.name, tokenIds.name],
    { rank: 2, type: "float", last: table.shape[1] },
    { axis: 0 },
  );

  const seeds = new Map<string, Value>([
    [`${toDense.name}:0`, grid],
    [`${lookup.name}:0`, vectors],
  ]);
  return { seeds, maxLength };
}

function constantInt(graph: TfGraph, ref: string | undefined): number | undefined {
  const weight = ref === undefined ? undefined : graph.weights.get(parseInputRef(ref).node);
  return weight && weight.dtype !== "float32" && weight.data.length === 1
    ? Number(weight.data[0])
    : undefined;
}

/** The `position < N` test upstream of SparseToDense (ClipToMaxLength) gives the length limit. */
function findClipLength(start: TfNode, byName: Map<string, TfNode>, graph: TfGraph): number | undefined {
  const seen = new Set<string>();
  const queue = [start];
  for (let node = queue.shift(); node; node = queue.shift()) {
    if (node.op === "Less" && node !== start) {
      const limit = constantInt(graph, node.input[1]);
      if (limit !== undefined) return limit;
    }
    for (const ref of node.input) {
      const name = parseInputRef(ref).node;
      const next = byName.get(name);
      if (next && !seen.has(name)) {
        seen.add(name);
        queue.push(next);
      }
    }
  }
  return undefined;
}
