/** The content_moderation model: the public surface the guardrail definition uses. */
import { createModerationModel, type ModerationModel } from "./model.js";
import { DEFAULT_MODEL_DIR, readWeights } from "./weights.js";

export {
  CATEGORY_DESCRIPTIONS,
  HAZARD_MAPPING,
  MODERATION_CATEGORIES,
  type ModerationCategory,
} from "./categories.js";
export type { ModerationModel, ModerationResult } from "./model.js";
export { MODERATION_SIGNALS, type ModerationSignal } from "./raw-score.js";
export { DEFAULT_MODEL_DIR } from "./weights.js";

/**
 * The bundled default threshold on `unsafeScore`: 0.5, where each signal meets its own operating
 * point (chosen by leave-one-source-out, see models/content-moderation/MODEL_CARD.md). The loaded
 * model's own `threshold` is authoritative; this constant mirrors it for settings defaults.
 */
export const DEFAULT_MODERATION_THRESHOLD = 0.5;

// Weights are immutable: every guardrail instance in the process shares one copy per directory.
const loaded = new Map<string, Promise<ModerationModel>>();

/**
 * Reads models/content-moderation/{model.json,weights.bin.gz} (or `dir`) once. A missing or stale file is a
 * ModelUnavailableError naming the file and `npm run train:content-moderation`.
 */
export function loadModerationModel(dir: string = DEFAULT_MODEL_DIR): Promise<ModerationModel> {
  let model = loaded.get(dir);
  if (!model) {
    model = readWeights(dir).then(createModerationModel);
    // A failed load is forgotten, so a retry after training succeeds.
    model.catch(() => loaded.delete(dir));
    loaded.set(dir, model);
  }
  return model;
}
