import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { threshold, UNAVAILABLE_REASON, unavailableDetector } from "./unavailable.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  threshold: threshold(0.5),
  /** The app's system prompt, inline or as a file path relative to the profile. */
  system_prompt: z.string().optional(),
  system_prompt_file: z.string().optional(),
  /** Secret marker strings planted in the system prompt; seeing one in a response is a leak. */
  canaries: z.array(z.string().min(1)).default([]),
});

export const systemPromptProtectionGuardrail = {
  id: "system_prompt_protection",
  appliesTo: ["output"],
  settings,
  unavailable: UNAVAILABLE_REASON,
  create: () => unavailableDetector("system_prompt_protection"),
  render: (finding) =>
    finding
      ? {
          enabled: true,
          detected: finding.flagged,
          score: finding.score ?? null,
          threshold: finding.threshold ?? null,
        }
      : { enabled: false, detected: false, score: null, threshold: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
