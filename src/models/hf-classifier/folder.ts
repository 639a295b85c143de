import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ConfigError } from "../../errors.js";
import { ModelUnavailableError } from "../model-error.js";

/**
 * What a local Hugging Face export must hold, checked before @huggingface/transformers sees it, so
 * a wrong folder fails with the path and the fix instead of a hub error. Layout written by
 * `optimum-cli export onnx --task text-classification` (or `feature-extraction`).
 */
export type ModelTask = "text-classification" | "token-classification" | "feature-extraction";

export const expectedLayout = (task: ModelTask): string =>
  `expected a Hugging Face ${task} export: config.json${task === "feature-extraction" ? "" : " (with id2label)"}, ` +
  "tokenizer.json, tokenizer_config.json and onnx/model.onnx or model.onnx; make one with " +
  `\`optimum-cli export onnx --model <hub id> --task ${task} <folder>\``;

export const EXPECTED_LAYOUT = expectedLayout("text-classification");

/** Weight files transformers.js knows, best first: fp32, then optimum's int8 quantisation. */
const WEIGHTS = [
  { file: "onnx/model.onnx", subfolder: "onnx", dtype: "fp32" },
  { file: "model.onnx", subfolder: "", dtype: "fp32" },
  { file: "onnx/model_quantized.onnx", subfolder: "onnx", dtype: "q8" },
  { file: "model_quantized.onnx", subfolder: "", dtype: "q8" },
] as const;
export type Weights = (typeof WEIGHTS)[number];

const modelConfig = z.looseObject({
  model_type: z.string({ error: "must name the architecture (e.g. deberta-v2)" }),
  id2label: z.record(z.string(), z.string(), { error: "must map class indexes to label names" }).optional(),
  hidden_size: z.number().int().positive().optional(),
  max_position_embeddings: z.number().int().positive().optional(),
  problem_type: z.string().optional(),
});
const tokenizerConfig = z.looseObject({ model_max_length: z.number().positive().optional() });

export interface ModelFolder {
  readonly dir: string;
  readonly weights: Weights;
  readonly modelType: string;
  /** Label names in class-index order (none for a feature-extraction export). */
  readonly labels: readonly string[];
  /** config.json's hidden_size, when it says. */
  readonly hiddenSize?: number;
  /** Longest input the model takes, special tokens included. */
  readonly maxLength: number;
  /**
   * Labels are independent (config.json `problem_type: multi_label_classification`, as in toxicity
   * models that tag a text both "insult" and "threat"): each logit is a sigmoid, not one softmax.
   */
  readonly multiLabel: boolean;
}

export async function inspectModelFolder(
  dir: string,
  task: ModelTask = "text-classification",
): Promise<ModelFolder> {
  const layout = expectedLayout(task);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new ModelUnavailableError(dir, `no such folder; ${layout}`);
  const config = await readJson(join(dir, "config.json"), modelConfig, layout);
  await readJson(join(dir, "tokenizer.json"), z.looseObject({ model: z.looseObject({}) }), layout);
  const tokenizer = await readJson(join(dir, "tokenizer_config.json"), tokenizerConfig, layout);
  const weights = await findWeights(dir, layout);
  const classifies = task !== "feature-extraction";
  if (classifies && !config.id2label)
    throw new ModelUnavailableError(join(dir, "config.json"), `id2label: missing; ${layout}`);
  return {
    dir,
    weights,
    modelType: config.model_type,
    labels: classifies ? labelList(join(dir, "config.json"), config.id2label ?? {}) : [],
    ...(config.hidden_size === undefined ? {} : { hiddenSize: config.hidden_size }),
    maxLength: modelMaxLength(tokenizer.model_max_length, config.max_position_embeddings),
    multiLabel: config.problem_type === "multi_label_classification",
  };
}

/**
 * The index of a label the profile names: exact match first, then ignoring case. `fix` says which
 * setting to correct (default: the llm guardrail's `injection_label`).
 */
export function labelIndex(
  folder: ModelFolder,
  wanted: string,
  fix = "set injection_label to the one that means injection",
): number {
  const exact = folder.labels.indexOf(wanted);
  if (exact >= 0) return exact;
  const loose = folder.labels.flatMap((l, i) => (l.toLowerCase() === wanted.toLowerCase() ? [i] : []));
  if (loose.length === 1) return loose[0] as number;
  throw new ConfigError(
    `${join(folder.dir, "config.json")}: the model has no label "${wanted}" ` +
      `(its labels: ${folder.labels.join(", ")}); ${fix}`,
  );
}

async function findWeights(dir: string, layout: string): Promise<Weights> {
  for (const w of WEIGHTS) {
    if ((await stat(join(dir, w.file)).catch(() => undefined))?.isFile()) return w;
  }
  throw new ModelUnavailableError(join(dir, "onnx", "model.onnx"), `no ONNX weights found; ${layout}`);
}

async function readJson<T>(path: string, schema: z.ZodType<T>, layout: string): Promise<T> {
  const text = await readFile(path, "utf8").catch((cause: unknown) => {
    throw new ModelUnavailableError(path, `missing or unreadable; ${layout}`, cause);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ModelUnavailableError(path, "not valid JSON; copy it again from the model's export", cause);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ModelUnavailableError(path, `${issue?.path.join(".") || "file"}: ${issue?.message}; ${layout}`);
}

function labelList(path: string, id2label: Record<string, string>): string[] {
  const labels = Object.keys(id2label).map((_, i) => id2label[String(i)]);
  if (labels.length < 2 || labels.some((l) => l === undefined)) {
    throw new ModelUnavailableError(path, "id2label must name classes 0, 1, … with no gaps (at least two)");
  }
  return labels as string[];
}

// Tokenizer configs often say model_max_length = 1e30 ("no limit"): the position table decides then.
function modelMaxLength(tokenizerMax: number | undefined, positions: number | undefined): number {
  const limits = [tokenizerMax, positions].filter((n): n is number => n !== undefined && n <= 1e6);
  return limits.length > 0 ? Math.min(...limits) : 512;
}
