import { IDS_INPUT, seedDenseInput } from "./dense-input.js";
import { GraphBuilder, type Operand, type Translator, type Value } from "./graph-builder.js";
import { DataType, encodeModel } from "./onnx-model.js";
import { elementwiseOps } from "./ops-elementwise.js";
import { indexOps } from "./ops-index.js";
import { matmulOps } from "./ops-matmul.js";
import { reduceOps } from "./ops-reduce.js";
import { shapeOps } from "./ops-shape.js";
import { sliceOps } from "./ops-slice.js";
import type { Precision } from "./quantize.js";
import { parseInputRef, readTfjsGraph, type TfGraph, type TfNode } from "./tfjs-graph.js";

/**
 * TF.js graph model → ONNX (opset 17), op by op. Bump CONVERTER_VERSION whenever the output
 * could change: cached models record it and are rebuilt when it differs.
 */
export const CONVERTER_VERSION = "use-lite-converter/2";
export const OPSET = 17;
export const OUTPUT_NAME = "embeddings";
/**
 * The second output: the last layer's state of every token, zero at padding, [batch, sequence,
 * 512]. The graph computes it anyway just before it averages the tokens into the sentence vector,
 * so exposing it costs nothing; heads that learn their own pooling over it read it (issue 22).
 */
export const TOKEN_STATES_NAME = "token_states";
const TOKEN_STATES_NODE = "module_apply_default/Encoder_en/KonaTransformer/mul";

const TRANSLATORS: Readonly<Record<string, Translator>> = {
  ...elementwiseOps,
  ...shapeOps,
  ...sliceOps,
  ...indexOps,
  ...reduceOps,
  ...matmulOps,
};

export async function convertTfjsModel(modelDir: string, precision: Precision = "fp32"): Promise<Uint8Array> {
  return convertGraph(await readTfjsGraph(modelDir), precision);
}

/** `int8` quantises every dense layer's weights (quantize.ts); the rest of the graph is the same. */
export function convertGraph(graph: TfGraph, precision: Precision = "fp32"): Uint8Array {
  const b = new GraphBuilder(precision);
  const { seeds } = seedDenseInput(graph, b);
  const output = findOutput(graph);
  const values = new Map<string, Value>(seeds);
  for (const node of topologicalOrder(graph, output, seeds)) {
    const translate = TRANSLATORS[node.op];
    if (!translate) throw new Error(`cannot convert ${node.name}: no translator for TF op ${node.op}`);
    b.scope = node.name;
    const outs = translate(node, operands(node, graph, values, b), b);
    for (const [i, v] of outs.entries()) values.set(`${node.name}:${i}`, v);
  }
  const result = values.get(`${output.name}:0`);
  if (result?.rank !== 2) throw new Error(`output ${output.name} is not a [batch, dim] matrix`);
  const states = values.get(`${TOKEN_STATES_NODE}:0`);
  if (states?.rank !== 3) throw new Error(`${TOKEN_STATES_NODE} is not a [batch, sequence, dim] tensor`);
  b.scope = "output";
  b.nodes.push(
    { opType: "Identity", inputs: [result.name], outputs: [OUTPUT_NAME], name: "output/Identity" },
    { opType: "Identity", inputs: [states.name], outputs: [TOKEN_STATES_NAME], name: "output/TokenStates" },
  );
  return encodeModel(
    {
      name: "use_lite",
      nodes: b.nodes,
      initializers: [...b.initializers.values()],
      inputs: [{ name: IDS_INPUT, dataType: DataType.INT32, shape: ["batch", "sequence"] }],
      outputs: [
        { name: OUTPUT_NAME, dataType: DataType.FLOAT, shape: ["batch", result.last ?? "dim"] },
        {
          name: TOKEN_STATES_NAME,
          dataType: DataType.FLOAT,
          shape: ["batch", "sequence", states.last ?? "dim"],
        },
      ],
    },
    OPSET,
    CONVERTER_VERSION,
  );
}

function operands(node: TfNode, graph: TfGraph, values: Map<string, Value>, b: GraphBuilder): Operand[] {
  return node.input
    .map(parseInputRef)
    .filter((ref) => !ref.control)
    .map((ref): Operand => {
      const weight = graph.weights.get(ref.node);
      if (weight) {
        const ints = weight.dtype === "int32" ? Array.from(weight.data) : undefined;
        // Lazy: a constant read only for its value (an axis, a perm) never becomes an initializer.
        return {
          node: ref.node,
          weight,
          ints,
          get value() {
            return b.constant(ref.node, weight);
          },
        };
      }
      const value = values.get(`${ref.node}:${ref.output}`);
      if (!value) throw new Error(`${node.name}: input ${ref.node}:${ref.output} was not converted`);
      return { node: ref.node, weight: undefined, ints: undefined, value };
    });
}

/** The one node nothing consumes: the graph's output. */
function findOutput(graph: TfGraph): TfNode {
  const consumed = new Set(graph.nodes.flatMap((n) => n.input.map((r) => parseInputRef(r).node)));
  const sinks = graph.nodes.filter(
    (n) => !consumed.has(n.name) && n.op !== "Const" && n.op !== "Placeholder",
  );
  if (sinks.length !== 1 || !sinks[0])
    throw new Error(`expected one output node, found ${sinks.map((n) => n.name)}`);
  return sinks[0];
}

/** Nodes the output needs, inputs first, stopping at seeded tensors and constants. */
function topologicalOrder(graph: TfGraph, output: TfNode, seeds: ReadonlyMap<string, Value>): TfNode[] {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const order: TfNode[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (node: TfNode): void => {
    if (state.get(node.name) === "done") return;
    if (state.get(node.name) === "visiting") throw new Error(`cycle at ${node.name}`);
    state.set(node.name, "visiting");
    for (const ref of node.input.map(parseInputRef)) {
      if (ref.control || seeds.has(`${ref.node}:${ref.output}`) || graph.weights.has(ref.node)) continue;
      const producer = byName.get(ref.node);
      if (!producer) throw new Error(`${node.name}: unknown input ${ref.node}`);
      if (producer.op === "Placeholder") throw new Error(`${node.name} reads the sparse input ${ref.node}`);
      visit(producer);
    }
    state.set(node.name, "done");
    order.push(node);
  };
  visit(output);
  return order;
}
