import { z } from "zod";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition } from "../../src/guardrails/types.js";

/** A keyword stand-in that flags texts containing "bad", or throws on "boom": for on_error tests. */
export const boomKeyword: AnyGuardrailDefinition = {
  ...builtinGuardrails.keyword,
  settings: z.strictObject({ enabled: z.boolean().default(false) }),
  create: () => ({
    check: ({ text }) => {
      if (text.folded.includes("boom")) throw new Error("detector exploded");
      return { flagged: text.folded.includes("bad"), matched: text.folded.includes("bad") ? ["bad"] : [] };
    },
  }),
};
