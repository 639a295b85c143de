import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { DataType, encodeModel, type OnnxTensor } from "../../../src/models/use-lite/convert/onnx-model.js";

/**
 * Builds, at test time, the smallest folder a Hugging Face text-classification export can be:
 * config.json with id2label, a WordPiece tokenizer.json, and an ONNX graph that averages a
 * 2-d embedding of the real tokens (attention mask) and maps it to 2 logits. Embedding column 0 is
 * an "attack word" weight, column 1 is constant 1: logits = [2, 6 × mean attack weight], so a text
 * with "ignore … instructions" scores high for the injection label and plain questions score ~0.12.
 */
export const TINY_VOCAB = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "ignore",
  "previous",
  "instructions",
  "all",
  "the",
  "what",
  "is",
  "weather",
  "today",
  "please",
  "and",
  "a",
  "summary",
  ".",
  "?",
  "alice",
  "smith",
  "lives",
  "in",
  "paris",
] as const;
const ATTACK_WEIGHT: Record<string, number> = { ignore: 4, instructions: 2 };

/**
 * Every fetch fails, as on a machine with no model hub: loading a local export must never reach
 * out. Call in beforeAll; vi.unstubAllGlobals() in afterAll undoes it.
 */
export function refuseNetwork(): void {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => {
      throw new Error("test: no network");
    }),
  );
}

export interface TinyModelOptions {
  readonly labels?: readonly string[];
  /** Where the weights go: "onnx/model.onnx" (optimum's layout) or "model.onnx". */
  readonly onnxPath?: "onnx/model.onnx" | "model.onnx";
  readonly skip?: readonly ("config.json" | "tokenizer.json" | "tokenizer_config.json" | "onnx")[];
  /** config.json's problem_type: "multi_label_classification" makes each logit a sigmoid. */
  readonly problemType?: string;
  /**
   * `feature-extraction`: no labels and no head; the graph's output is `last_hidden_state`, each
   * token's 2-d embedding (attack weight, 1), as `optimum-cli --task feature-extraction` exports.
   */
  readonly task?: "text-classification" | "feature-extraction" | "token-classification";
}

export async function buildTinyModel(options: TinyModelOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hf-tiny-"));
  const skip = new Set(options.skip ?? []);
  const labels = options.labels ?? ["SAFE", "INJECTION"];
  const files: Record<string, unknown> = {
    "config.json": {
      model_type: "bert",
      architectures: ["BertForSequenceClassification"],
      ...(options.task === "feature-extraction"
        ? { architectures: ["BertModel"], hidden_size: 2 }
        : {
            id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])),
            label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
          }),
      max_position_embeddings: 512,
      ...(options.problemType ? { problem_type: options.problemType } : {}),
    },
    "tokenizer.json": tokenizerJson(),
    "tokenizer_config.json": {
      model_max_length: 512,
      do_lower_case: true,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
    },
  };
  for (const [name, json] of Object.entries(files)) {
    if (!skip.has(name as "config.json")) await writeFile(join(dir, name), JSON.stringify(json));
  }
  if (!skip.has("onnx")) {
    const onnxPath = options.onnxPath ?? "onnx/model.onnx";
    await mkdir(join(dir, "onnx"), { recursive: true });
    const onnx =
      options.task === "feature-extraction"
        ? tinyEncoderOnnx()
        : options.task === "token-classification"
          ? tinyTaggerOnnx(labels)
          : tinyOnnx(labels.length);
    await writeFile(join(dir, onnxPath), onnx);
  }
  return dir;
}

function tokenizerJson(): unknown {
  const special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"].map((content, id) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: special,
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((w, i) => [w, i])),
    },
  };
}

const floats = (name: string, dims: number[], values: number[]): OnnxTensor => ({
  name,
  dataType: DataType.FLOAT,
  dims,
  raw: new Uint8Array(new Float32Array(values).buffer),
});
const int64s = (name: string, values: number[]): OnnxTensor => ({
  name,
  dataType: DataType.INT64,
  dims: [values.length],
  raw: new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer),
});

/** Masked mean of the token embeddings, then one MatMul to the logits (opset 17). */
function tinyOnnx(numLabels: number): Uint8Array {
  const embedding = TINY_VOCAB.flatMap((w) => [ATTACK_WEIGHT[w] ?? 0, 1]);
  // Row 0 (attack weight) feeds the last label, row 1 (constant) the first; any others get 0.
  const head: number[] = Array.from({ length: numLabels }, (_, j) => (j === numLabels - 1 ? 6 : 0));
  head.push(...Array.from({ length: numLabels }, (_, j) => (j === 0 ? 2 : 0)));
  const node = (
    opType: string,
    inputs: string[],
    outputs: string[],
    attributes?: Record<string, number>,
  ) => ({
    opType,
    inputs,
    outputs,
    name: outputs[0] as string,
    ...(attributes ? { attributes } : {}),
  });
  return encodeModel(
    {
      name: "hf-tiny",
      nodes: [
        node("Gather", ["embedding", "input_ids"], ["tokens"]),
        node("Cast", ["attention_mask"], ["mask"], { to: DataType.FLOAT }),
        node("Unsqueeze", ["mask", "last_axis"], ["mask3"]),
        node("Mul", ["tokens", "mask3"], ["masked"]),
        node("ReduceSum", ["masked", "seq_axis"], ["summed"], { keepdims: 0 }),
        node("ReduceSum", ["mask3", "seq_axis"], ["count"], { keepdims: 0 }),
        node("Div", ["summed", "count"], ["mean"]),
        node("MatMul", ["mean", "head"], ["logits"]),
      ],
      initializers: [
        floats("embedding", [TINY_VOCAB.length, 2], embedding),
        floats("head", [2, numLabels], head),
        int64s("last_axis", [-1]),
        int64s("seq_axis", [1]),
      ],
      inputs: [
        { name: "input_ids", dataType: DataType.INT64, shape: ["batch", "sequence"] },
        { name: "attention_mask", dataType: DataType.INT64, shape: ["batch", "sequence"] },
      ],
      outputs: [{ name: "logits", dataType: DataType.FLOAT, shape: ["batch", numLabels] }],
    },
    17,
    "test",
  );
}

/** Token embeddings only: last_hidden_state [batch, sequence, 2] (opset 17). */
function tinyEncoderOnnx(): Uint8Array {
  const embedding = TINY_VOCAB.flatMap((w) => [ATTACK_WEIGHT[w] ?? 0, 1]);
  return encodeModel(
    {
      name: "hf-tiny-encoder",
      nodes: [
        {
          opType: "Gather",
          inputs: ["embedding", "input_ids"],
          outputs: ["last_hidden_state"],
          name: "gather",
        },
      ],
      initializers: [floats("embedding", [TINY_VOCAB.length, 2], embedding)],
      inputs: [
        { name: "input_ids", dataType: DataType.INT64, shape: ["batch", "sequence"] },
        { name: "attention_mask", dataType: DataType.INT64, shape: ["batch", "sequence"] },
      ],
      outputs: [{ name: "last_hidden_state", dataType: DataType.FLOAT, shape: ["batch", "sequence", 2] }],
    },
    17,
    "test",
  );
}

/**
 * Each token's logits straight from its embedding row (opset 17): "alice" is B-PER, "smith" I-PER,
 * "paris" B-LOC, every other token O, for labels that name them.
 */
function tinyTaggerOnnx(labels: readonly string[]): Uint8Array {
  const tagOf: Record<string, string> = { alice: "B-PER", smith: "I-PER", paris: "B-LOC" };
  const table = TINY_VOCAB.flatMap((w) => {
    const wanted = labels.indexOf(tagOf[w] ?? "O");
    return labels.map((_, k) => (k === Math.max(wanted, 0) ? 5 : 0));
  });
  return encodeModel(
    {
      name: "hf-tiny-tagger",
      nodes: [{ opType: "Gather", inputs: ["embedding", "input_ids"], outputs: ["logits"], name: "gather" }],
      initializers: [floats("embedding", [TINY_VOCAB.length, labels.length], table)],
      inputs: [
        { name: "input_ids", dataType: DataType.INT64, shape: ["batch", "sequence"] },
        { name: "attention_mask", dataType: DataType.INT64, shape: ["batch", "sequence"] },
      ],
      outputs: [{ name: "logits", dataType: DataType.FLOAT, shape: ["batch", "sequence", labels.length] }],
    },
    17,
    "test",
  );
}
