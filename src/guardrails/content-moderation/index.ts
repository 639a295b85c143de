import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { DEFAULT_MODERATION_THRESHOLD, loadModerationModel } from "./model/index.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /** UNSAFE at or above this calibrated score; the default was chosen on held-out data. */
  threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").default(DEFAULT_MODERATION_THRESHOLD),
});

/**
 * Judges the response, not the topic: a refusal or a safety explanation is SAFE, compliance
 * with a harmful request or plainly toxic text is UNSAFE. Hashed n-grams, averaged with the shared
 * sentence embedding when the engine has an encoder; the whole text and its sentence windows
 * are scored and the most unsafe window gives the category (see models/content-moderation/MODEL_CARD.md).
 */
export const contentModerationGuardrail = {
  id: "content_moderation",
  appliesTo: ["output"],
  settings,
  usesEncoder: true,
  scored: true,
  async create(options) {
    const model = await loadModerationModel();
    return {
      triage: (texts) => model.triage(texts),
      async check(request) {
        const classify = async (embedding: typeof request.embedding) =>
          model.classify(request.text.clean, (await embedding?.())?.vectors);
        let result = await classify(request.embedding);
        // A chunk of a stream is first read without its unfinished sentence (one encoder run per
        // chunk otherwise); a flag is confirmed on the text as it stands, read whole.
        if (result.unsafeScore >= options.threshold && request.wholeEmbedding)
          result = await classify(request.wholeEmbedding);
        const flagged = result.unsafeScore >= options.threshold;
        return {
          flagged,
          score: Math.round(result.unsafeScore * 1e4) / 1e4,
          threshold: options.threshold,
          ...(flagged && result.category ? { category: result.category } : {}),
        };
      },
    };
  },
  // The spec (docs/service-spec.md, output-check) writes the category as a `CATEGORIES: <CATEGORY>` label; null when SAFE or disabled.
  render: (finding) =>
    finding
      ? {
          enabled: true,
          result: finding.flagged ? "UNSAFE" : "SAFE",
          unsafe: finding.flagged,
          category: finding.flagged && finding.category ? `CATEGORIES: ${finding.category}` : null,
        }
      : { enabled: false, result: null, unsafe: false, category: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
