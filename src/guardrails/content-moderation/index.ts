import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { judgeCategories, listedCategories } from "./listed-categories.js";
import { DEFAULT_MODERATION_THRESHOLD, loadModerationModel } from "./model/index.js";
import { OWN_MODEL_THRESHOLD, ownModelDetector, ownModerationModel } from "./own-model.js";

const settings = z
  .strictObject({
    enabled: z.boolean().default(false),
    /**
     * UNSAFE at or above this score. Omit it for the bundled model's own (chosen on held-out data,
     * see models/content-moderation/MODEL_CARD.md), or 0.5 for a model of your own.
     */
    threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").optional(),
    /** Bring your own model instead of the bundled one (see own-model.ts). */
    model: ownModerationModel.optional(),
    /** The harm categories this profile flags (all by default); see listed-categories.ts. */
    categories: listedCategories,
  })
  // A model of your own judges only the categories its labels map to: none of them listed, it could never flag.
  .refine(
    (s) => !s.model || Object.values(s.model.labels).some((c) => c !== "SAFE" && s.categories.includes(c)),
    {
      path: ["categories"],
      message: "none of the categories model.labels maps to is listed; list one, or set enabled: false",
    },
  )
  // Resolved here, so every reader of the settings (batch, profiles show) sees the one in force.
  .transform((s) => ({
    ...s,
    threshold: s.threshold ?? (s.model ? OWN_MODEL_THRESHOLD : DEFAULT_MODERATION_THRESHOLD),
  }));

/** Both signals' calibrated probabilities; null when there are none (a failed check, your own model). */
function signalsOf(
  s: Readonly<Record<string, number>> | undefined,
): { toxic: number; compliance: number } | null {
  return s && typeof s.toxic === "number" && typeof s.compliance === "number"
    ? { toxic: s.toxic, compliance: s.compliance }
    : null;
}

/**
 * Judges the response, not the topic: a refusal or a safety explanation is SAFE, compliance
 * with a harmful request or plainly toxic text is UNSAFE. Two signals, each calibrated on its own
 * data and flagged from its own operating point: toxic text and harmful compliance; the score is
 * the larger once each is placed against its point (model.ts, atOperatingPoint), and the body
 * reports both probabilities. Hashed n-grams, averaged with the shared sentence embedding when the
 * engine has an encoder; the whole text and its sentence windows
 * are scored and the most unsafe window gives the category (see models/content-moderation/MODEL_CARD.md).
 * A profile's `categories` narrows what counts (listed-categories.ts); the signals stay the text's own.
 */
export const contentModerationGuardrail = {
  id: "content_moderation",
  appliesTo: ["output"],
  settings,
  usesEncoder: true,
  scored: true,
  async create(options, context) {
    const model = await loadModerationModel();
    const { threshold, categories } = options;
    if (options.model) return ownModelDetector(options.model, threshold, categories, context.baseDir, model);
    return {
      triage: (texts) => model.triage(texts),
      async check(request) {
        // Weights without USE-lite heads never ask for the (lazy, shared) embedding.
        const classify = async (embedding: typeof request.embedding) =>
          model.classify(
            request.text.clean,
            model.usesEmbeddings ? (await embedding?.())?.vectors : undefined,
          );
        // An unsafe text whose harm the profile does not list scores 0, so that `score ≥ threshold`
        // is the verdict at every threshold and batch's sweeps stay about this profile's flags.
        const judge = async (embedding: typeof request.embedding) => {
          const result = await classify(embedding);
          const verdict = judgeCategories(result.categoryScores, categories);
          return { result, verdict, score: verdict.listed ? result.unsafeScore : 0 };
        };
        let judged = await judge(request.embedding);
        // A chunk of a stream is first read without its unfinished sentence (one encoder run per
        // chunk otherwise); a flag is confirmed on the text as it stands, read whole.
        if (judged.score >= threshold && request.wholeEmbedding && model.usesEmbeddings)
          judged = await judge(request.wholeEmbedding);
        const { result, verdict, score } = judged;
        const flagged = score >= threshold;
        const category = result.category === null ? null : verdict.category;
        const round = (x: number) => Math.round(x * 1e4) / 1e4;
        return {
          flagged,
          score: round(score),
          threshold,
          signals: {
            toxic: round(result.signalScores.toxic),
            compliance: round(result.signalScores.compliance),
          },
          ...(flagged && category ? { category } : {}),
        };
      },
    };
  },
  // The spec (docs/service-spec.md, output-check) writes the category as a `CATEGORIES: <CATEGORY>` label; null when SAFE or disabled.
  // `signals` is detail the spec leaves open (docs/http-api.md, "Decisions where the spec is silent").
  render: (finding) =>
    finding
      ? {
          enabled: true,
          result: finding.flagged ? "UNSAFE" : "SAFE",
          unsafe: finding.flagged,
          category: finding.flagged && finding.category ? `CATEGORIES: ${finding.category}` : null,
          signals: signalsOf(finding.signals),
        }
      : { enabled: false, result: null, unsafe: false, category: null, signals: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
