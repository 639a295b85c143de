import { resolve } from "node:path";
import { ConfigError } from "../../errors.js";
import { splitIntoWindows } from "../../text/windows.js";
import { ModelUnavailableError } from "../model-error.js";
import { selectWindows, type Triage } from "../window-budget.js";
import { inspectModelFolder, labelIndex, type ModelFolder } from "./folder.js";
import { importOfflineTransformers, type Transformers } from "./runtime.js";

export interface HfClassifierOptions {
  /** Folder of the export; made absolute against the working directory. */
  readonly dir: string;
  /** The id2label name that means "injection" (e.g. INJECTION, LABEL_1, MALICIOUS). */
  readonly injectionLabel: string;
  /** Tokens per window, special tokens included; defaults to the model's limit (often 512). */
  readonly maxLength?: number;
  /** ONNX Runtime intra-op threads (default 1: parallelism belongs across workers). */
  readonly threads?: number;
  /** Windows the model reads per text at most (default MAX_MODEL_WINDOWS). */
  readonly maxWindows?: number;
}

/**
 * A text longer than this many windows (about 4,000 tokens at 512 a window) has only this many
 * read by the model, chosen by a triage: a transformer such as DeBERTa-base takes a few hundred
 * milliseconds a window on a laptop CPU, and 100,000 characters make 50 of them.
 */
export const MAX_MODEL_WINDOWS = 8;

export interface WindowedScore {
  /** The highest injection probability over the windows read. */
  readonly score: number;
  /** Windows past the budget that the model did not read: the caller scores them another way. */
  readonly skipped: number;
}

export interface HfTextClassifier {
  /** The model's labels in class-index order. */
  readonly labels: string[];
  readonly injectionLabel: string;
  readonly maxLength: number;
  /**
   * Probability of the injection label in [0,1]: the highest over sentence windows that each fit
   * `maxLength`, so nothing past the model's limit is cut off. 0 for a blank text.
   */
  score(text: string): Promise<number>;
  /** The same, reading at most `maxWindows` windows, chosen by `triage` when there are more. */
  assess(text: string, triage?: Triage): Promise<WindowedScore>;
  close(): Promise<void>;
}

// Windows per forward pass: padding waste stays small, a long document still takes few calls.
const BATCH = 8;

export async function loadHfTextClassifier(options: HfClassifierOptions): Promise<HfTextClassifier> {
  const folder = await inspectModelFolder(resolve(options.dir));
  const target = labelIndex(folder, options.injectionLabel);
  const maxLength = checkMaxLength(options.maxLength, folder);
  const { tokenizer, model } = await loadModel(folder, options.threads ?? 1);
  const countTokens = (text: string): number => tokenizer.encode(text).length;

  async function windowScores(texts: string[]): Promise<number[]> {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
    const { logits } = (await model(inputs)) as { logits: { dims: number[]; data: Float32Array } };
    const [rows, width] = logits.dims;
    if (rows !== texts.length || width !== folder.labels.length) {
      throw new ModelUnavailableError(
        resolve(folder.dir, folder.weights.file),
        `its logits have shape [${logits.dims}] but config.json names ${folder.labels.length} labels; re-export the model`,
      );
    }
    return texts.map((_, r) => softmaxAt(logits.data.subarray(r * width, (r + 1) * width), target));
  }

  // One pass at load time checks the output shape and warms the session up.
  await windowScores(["hello"]).catch(async (error: unknown) => {
    await model.dispose();
    throw error;
  });

  const budget = options.maxWindows ?? MAX_MODEL_WINDOWS;
  const assess = async (text: string, triage?: Triage): Promise<WindowedScore> => {
    const all = splitIntoWindows(text, countTokens, { maxTokens: maxLength });
    const { chosen, skipped } = selectWindows(all, budget, triage);
    const windows = chosen.map((w) => w.text);
    let best = 0;
    for (let i = 0; i < windows.length; i += BATCH) {
      best = Math.max(best, ...(await windowScores(windows.slice(i, i + BATCH))));
    }
    return { score: best, skipped: skipped.length };
  };
  return {
    labels: [...folder.labels],
    injectionLabel: folder.labels[target] as string,
    maxLength,
    score: async (text) => (await assess(text)).score,
    assess,
    async close() {
      await model.dispose();
    },
  };
}

type Loaded = {
  tokenizer: Awaited<ReturnType<Transformers["AutoTokenizer"]["from_pretrained"]>>;
  model: Awaited<ReturnType<Transformers["AutoModelForSequenceClassification"]["from_pretrained"]>>;
};

async function loadModel(folder: ModelFolder, threads: number): Promise<Loaded> {
  const { AutoTokenizer, AutoModelForSequenceClassification } = await importOfflineTransformers(folder.dir);
  const local = { local_files_only: true } as const;
  try {
    const tokenizer = await AutoTokenizer.from_pretrained(folder.dir, local);
    const model = await AutoModelForSequenceClassification.from_pretrained(folder.dir, {
      ...local,
      subfolder: folder.weights.subfolder,
      dtype: folder.weights.dtype,
      device: "cpu",
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    });
    return { tokenizer, model };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ModelUnavailableError(
      folder.dir,
      `@huggingface/transformers could not load this ${folder.modelType} model: ${reason}; re-export it with optimum-cli (check config.json model_type)`,
      cause,
    );
  }
}

function checkMaxLength(wanted: number | undefined, folder: ModelFolder): number {
  if (wanted === undefined) return folder.maxLength;
  // Room for the special tokens and at least a couple of words per window.
  if (!Number.isInteger(wanted) || wanted < 8 || wanted > folder.maxLength) {
    throw new ConfigError(
      `${folder.dir}: max_length must be a whole number from 8 to ${folder.maxLength} (the model's limit), got ${wanted}`,
    );
  }
  return wanted;
}

/** Probability of class `k`, computed stably; a single-logit model is read as a sigmoid. */
function softmaxAt(logits: Float32Array, k: number): number {
  if (logits.length === 1) return 1 / (1 + Math.exp(-(logits[0] as number)));
  const max = Math.max(...logits);
  let sum = 0;
  for (const x of logits) sum += Math.exp(x - max);
  return Math.exp((logits[k] as number) - max) / sum;
}
