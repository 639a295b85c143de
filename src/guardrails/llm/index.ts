import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { DEFAULT_LLM_MODEL_DIR, loadInjectionClassifier } from "./classifier.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /**
   * A score at or above the threshold counts as injection (spec: Security profile). Omit it to
   * use the bundled model's threshold, chosen on held-out data (see models/llm/MODEL_CARD.md).
   */
  threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").optional(),
});

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The injection classifier: hashed word and character n-grams over the normalised text, scored
 * on the whole text and on every sentence window (an injection hidden in a long e-mail counts).
 */
export const llmGuardrail = {
  id: "llm",
  appliesTo: ["input"],
  settings,
  async create(options) {
    const classifier = await loadInjectionClassifier(DEFAULT_LLM_MODEL_DIR);
    const threshold = options.threshold ?? classifier.threshold;
    return {
      check(request) {
        const score = classifier.score(request.text.raw);
        return { flagged: score >= threshold, score: round(score), threshold };
      },
    };
  },
  render: (finding) =>
    finding
      ? { enabled: true, score: finding.score ?? null, threshold: finding.threshold ?? null }
      : { enabled: false, score: null, threshold: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
