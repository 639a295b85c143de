import type { Triage } from "../window-budget.js";
import { labelIndex } from "./folder.js";
import {
  type HfSequenceClassifier,
  loadHfSequenceClassifier,
  type SequenceClassifierOptions,
} from "./sequence-classifier.js";

export { MAX_MODEL_WINDOWS } from "./sequence-classifier.js";

export interface HfClassifierOptions extends SequenceClassifierOptions {
  /** The id2label name that means "injection" (e.g. INJECTION, LABEL_1, MALICIOUS). */
  readonly injectionLabel: string;
}

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

/** A text-classification export read for one label: the llm guardrail's own model. */
export async function loadHfTextClassifier(options: HfClassifierOptions): Promise<HfTextClassifier> {
  const classifier = await loadHfSequenceClassifier(options);
  try {
    return readForLabel(classifier, options.injectionLabel);
  } catch (error) {
    await classifier.close();
    throw error;
  }
}

/** A loaded classifier read for one of its labels; a label it lacks is a ConfigError naming its labels. */
export function readForLabel(classifier: HfSequenceClassifier, injectionLabel: string): HfTextClassifier {
  const { folder } = classifier;
  const target = labelIndex(folder, injectionLabel);
  const assess = async (text: string, triage?: Triage): Promise<WindowedScore> => {
    const { windows, skipped } = await classifier.read(text, triage);
    let best = 0;
    for (const p of windows) best = Math.max(best, p[target] as number);
    return { score: best, skipped };
  };
  return {
    labels: [...folder.labels],
    injectionLabel: folder.labels[target] as string,
    maxLength: classifier.maxLength,
    score: async (text) => (await assess(text)).score,
    assess,
    close: () => classifier.close(),
  };
}
