import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { threshold, UNAVAILABLE_REASON, unavailableDetector } from "./unavailable.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /** Cosine similarity at or above which a prompt counts as a known injection. */
  threshold: threshold(0.8),
  /** Extra corpora of known attacks (CSV, JSONL or text files), relative to the profile. */
  corpora: z.array(z.string().min(1)).default([]),
});

export const vectorGuardrail = {
  id: "vector",
  appliesTo: ["input"],
  settings,
  unavailable: UNAVAILABLE_REASON,
  create: () => unavailableDetector("vector"),
  render: (finding) =>
    finding ? { enabled: true, score: finding.score ?? null } : { enabled: false, score: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
