import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { threshold, UNAVAILABLE_REASON, unavailableDetector } from "./unavailable.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  threshold: threshold(0.5),
});

export const contentModerationGuardrail = {
  id: "content_moderation",
  appliesTo: ["output"],
  settings,
  unavailable: UNAVAILABLE_REASON,
  create: () => unavailableDetector("content_moderation"),
  // The spec writes the category as a `CATEGORIES: <CATEGORY>` label; null when SAFE or disabled.
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
