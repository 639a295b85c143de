import { z } from "zod";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { GuardrailDefinition } from "../../src/guardrails/types.js";

// A stand-in for the model-backed `llm` guardrail: the score is written in the text ("score 0.7").
const settings = z.strictObject({
  enabled: z.boolean().default(false),
  threshold: z.number().min(0).max(1).optional(),
});
// As the real one: without a threshold in the profile, the model's own (0.4541 here) applies.
export const MODEL_THRESHOLD = 0.4541;
const fakeLlm: GuardrailDefinition<z.output<typeof settings>> = {
  id: "llm",
  appliesTo: ["input"],
  scored: true,
  settings,
  create: (s) => ({
    check: ({ text }) => {
      const score = Number(/score ([\d.]+)/.exec(text.clean)?.[1] ?? 0);
      const threshold = s.threshold ?? MODEL_THRESHOLD;
      return { flagged: score >= threshold, score, threshold };
    },
  }),
  render: (f) => ({ enabled: f !== undefined, score: f?.score ?? null, threshold: f?.threshold ?? null }),
};

/** The built-in guardrails with the fake `llm`: runs on the main thread only (--concurrency 0). */
export const fakeLlmRegistry = async () => ({ ...builtinGuardrails, llm: fakeLlm });
