import { DEFAULT_MODERATION_THRESHOLD } from "../../../guardrails/content-moderation/model/index.js";
import { OWN_MODEL_THRESHOLD } from "../../../guardrails/content-moderation/own-model.js";
import { loadInjectionClassifier } from "../../../guardrails/llm/classifier.js";
import { defaultLeakThreshold } from "../../../guardrails/system-prompt-protection/detector/index.js";
import { DEFAULT_THRESHOLD as VECTOR_DEFAULT } from "../../../guardrails/vector/index.js";

/** The guardrails whose profile settings carry a `threshold`. */
export const THRESHOLD_GUARDRAILS = [
  "llm",
  "vector",
  "content_moderation",
  "system_prompt_protection",
] as const;
export type ThresholdGuardrail = (typeof THRESHOLD_GUARDRAILS)[number];

type Settings = Readonly<Record<string, unknown>> | undefined;

/**
 * The threshold a guardrail applies when its profile sets none, read from the bundled model as
 * the detectors read it (the server runs with the encoder, so llm's is the full model's). A
 * model of the user's own has no bundled threshold: 0.5, as the detectors say.
 */
export async function modelThreshold(
  id: ThresholdGuardrail,
  settings: Settings,
): Promise<number | undefined> {
  const own = settings?.model !== undefined;
  try {
    switch (id) {
      case "llm":
        return own ? 0.5 : (await loadInjectionClassifier()).threshold;
      case "vector":
        return VECTOR_DEFAULT;
      case "content_moderation":
        return own ? OWN_MODEL_THRESHOLD : DEFAULT_MODERATION_THRESHOLD;
      case "system_prompt_protection": {
        const prompt = settings?.system_prompt ?? settings?.system_prompt_file;
        return defaultLeakThreshold(undefined, { systemPrompt: typeof prompt === "string" && prompt !== "" });
      }
    }
  } catch {
    // A model that is not built (a source checkout before `npm run build:models`): say nothing.
    return undefined;
  }
}
