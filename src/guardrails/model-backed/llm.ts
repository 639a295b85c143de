import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { threshold, UNAVAILABLE_REASON, unavailableDetector } from "./unavailable.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /** A score at or above the threshold counts as injection (spec: Security profile). */
  threshold: threshold(0.5),
});

export const llmGuardrail = {
  id: "llm",
  appliesTo: ["input"],
  settings,
  unavailable: UNAVAILABLE_REASON,
  create: () => unavailableDetector("llm"),
  render: (finding) =>
    finding
      ? { enabled: true, score: finding.score ?? null, threshold: finding.threshold ?? null }
      : { enabled: false, score: null, threshold: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
