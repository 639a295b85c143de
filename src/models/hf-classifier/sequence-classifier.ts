import { resolve } from "node:path";
import { ConfigError } from "../../errors.js";
import { splitIntoWindows } from "../../text/windows.js";
import { sigmoid, softmaxInPlace } from "../math.js";
import { ModelUnavailableError } from "../model-error.js";
import { selectWindows, type Triage } from "../window-budget.js";
import { inspectModelFolder, type ModelFolder } from "./folder.js";
import { loadTransformersModel } from "./load.js";

export interface SequenceClassifierOptions {
  /** Folder of the export; made absolute against the working directory. */
  readonly dir: string;
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

export interface WindowProbabilities {
  /** One row per window read, one probability per label (label order of the model). */
  readonly windows: readonly Float64Array[];
  /** Windows past the budget that the model did not read: the caller scores them another way. */
  readonly skipped: number;
}

/** A local Hugging Face text-classification export, reading long texts window by window. */
export interface HfSequenceClassifier {
  readonly folder: ModelFolder;
  readonly maxLength: number;
  /**
   * Label probabilities of each sentence window of `text` that fits `maxLength` (so nothing past
   * the model's limit is cut off), at most `maxWindows` of them, chosen by `triage` when there are
   * more. No windows for a blank text.
   */
  read(text: string, triage?: Triage): Promise<WindowProbabilities>;
  close(): Promise<void>;
}

// Windows per forward pass: padding waste stays small, a long document still takes few calls.
const BATCH = 8;

export async function loadHfSequenceClassifier(
  options: SequenceClassifierOptions,
): Promise<HfSequenceClassifier> {
  const folder = await inspectModelFolder(resolve(options.dir));
  const maxLength = checkMaxLength(options.maxLength, folder);
  const { tokenizer, model } = await loadTransformersModel(
    folder,
    "AutoModelForSequenceClassification",
    options.threads ?? 1,
  );
  const countTokens = (text: string): number => tokenizer.encode(text).length;

  async function probabilities(texts: string[]): Promise<Float64Array[]> {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
    const { logits } = (await model(inputs)) as { logits: { dims: number[]; data: Float32Array } };
    const [rows, width] = logits.dims;
    if (rows !== texts.length || width !== folder.labels.length) {
      throw new ModelUnavailableError(
        resolve(folder.dir, folder.weights.file),
        `its logits have shape [${logits.dims}] but config.json names ${folder.labels.length} labels; re-export the model`,
      );
    }
    return texts.map((_, r) =>
      toProbabilities(logits.data.subarray(r * width, (r + 1) * width), folder.multiLabel),
    );
  }

  // One pass at load time checks the output shape and warms the session up.
  await probabilities(["hello"]).catch(async (error: unknown) => {
    await model.dispose();
    throw error;
  });

  const budget = options.maxWindows ?? MAX_MODEL_WINDOWS;
  return {
    folder,
    maxLength,
    async read(text, triage) {
      const all = splitIntoWindows(text, countTokens, { maxTokens: maxLength });
      const { chosen, skipped } = selectWindows(all, budget, triage);
      const texts = chosen.map((w) => w.text);
      const windows: Float64Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH)
        windows.push(...(await probabilities(texts.slice(i, i + BATCH))));
      return { windows, skipped: skipped.length };
    },
    async close() {
      await model.dispose();
    },
  };
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

/**
 * Label probabilities from logits, computed stably: one softmax over the labels, or a sigmoid per
 * label for a multi-label model. A model with a single logit is read as a sigmoid either way.
 */
export function toProbabilities(logits: ArrayLike<number>, multiLabel: boolean): Float64Array {
  const out = Float64Array.from(logits);
  if (multiLabel || logits.length === 1) return out.map(sigmoid);
  return softmaxInPlace(out);
}
