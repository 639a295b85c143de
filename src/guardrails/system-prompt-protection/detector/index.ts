import { createCanaryMatcher } from "./canary.js";
import { partsProbability } from "./linear.js";
import { DEFAULT_LEAK_MODEL_DIR, loadLeakModel } from "./model-file.js";
import { indexPrompt } from "./overlap.js";
import { combinerKey, computeParts, type PartsContext } from "./parts.js";
import { indexPromptSentences, type SentenceEncoder } from "./semantic.js";

export type { SentenceEncoder as Encoder } from "./semantic.js";

export interface LeakDetectorOptions {
  /** The app's system prompt; without it only the learned disclosure signal and canaries apply. */
  readonly systemPrompt?: string;
  readonly canaries: readonly string[];
  /** The shared sentence encoder; without it paraphrase detection rests on the learned signal. */
  readonly encoder?: SentenceEncoder;
  /** Where model.json and its weights live (tests point this elsewhere). */
  readonly modelDir?: URL;
}

export interface LeakScore {
  /** Calibrated probability that the response leaks its instructions, in [0, 1]. */
  readonly score: number;
  /** Every input of the score plus `canary` (1 on a hit), for explanations and debugging. */
  readonly parts: Record<string, number>;
}

export interface LeakDetector {
  /**
   * The bundled threshold for this configuration (with or without a system prompt):
   * `detected = score ≥ threshold` unless the profile sets its own.
   */
  readonly threshold: number;
  score(response: string, prompt?: string): Promise<LeakScore>;
}

/** The bundled default threshold, read from the model it was chosen for. */
export function defaultLeakThreshold(
  modelDir: URL = DEFAULT_LEAK_MODEL_DIR,
  { systemPrompt = true }: { systemPrompt?: boolean } = {},
): number {
  const model = loadLeakModel(modelDir);
  return systemPrompt ? model.threshold : (model.noSystemPromptThreshold ?? model.threshold);
}

/**
 * Builds a detector for one profile: the system prompt is shingled (and embedded, with an
 * encoder) once here, so each response costs one pass over its own words and sentences.
 */
export async function createLeakDetector(options: LeakDetectorOptions): Promise<LeakDetector> {
  const model = loadLeakModel(options.modelDir);
  const system = options.systemPrompt?.trim() ? options.systemPrompt : undefined;
  const context: PartsContext = {
    disclosure: model.disclosure,
    extraction: model.extraction,
    overlap: system ? indexPrompt(system) : undefined,
    // A model trained without the encoder has no "SE" combiners: the encoder is then left unused.
    semantic:
      system && options.encoder && model.combiners.SE
        ? await indexPromptSentences(options.encoder, system)
        : undefined,
  };
  const canaries = createCanaryMatcher(options.canaries);
  return {
    threshold: system ? model.threshold : (model.noSystemPromptThreshold ?? model.threshold),
    async score(response, prompt) {
      const hasPrompt = prompt !== undefined && prompt.trim() !== "";
      const parts = await computeParts(context, response, hasPrompt ? prompt : undefined);
      parts.canary = canaries(response).length > 0 ? 1 : 0;
      if (parts.canary === 1) return { score: 1, parts };
      const combiner = model.combiners[combinerKey(context, hasPrompt)];
      if (!combiner) throw new Error(`leak model has no combiner "${combinerKey(context, hasPrompt)}"`);
      return { score: partsProbability(combiner, parts), parts };
    },
  };
}
