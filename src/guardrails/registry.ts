import { contentModerationGuardrail } from "./content-moderation/index.js";
import { keywordGuardrail } from "./keyword/index.js";
import { llmGuardrail } from "./llm/index.js";
import { piiGuardrail } from "./pii/index.js";
import { regexGuardrail } from "./regex/index.js";
import { systemPromptProtectionGuardrail } from "./system-prompt-protection/index.js";
import type { AnyGuardrailDefinition, GuardrailId } from "./types.js";
import { vectorGuardrail } from "./vector/index.js";

export type GuardrailRegistry = Readonly<Record<GuardrailId, AnyGuardrailDefinition>>;

/**
 * Every guardrail of the spec (docs/service-spec.md). This order, filtered by `appliesTo`, is the order of the response's
 * `checks` keys on each endpoint (`checkOrder` in lists.ts): llm, keyword, regex, pii, vector on
 * input-check; content_moderation, keyword, regex, pii, system_prompt_protection on output-check.
 * A new guardrail is its folder, one line here and its id in GUARDRAIL_IDS (the compiler asks).
 */
export const builtinGuardrails = {
  llm: llmGuardrail,
  content_moderation: contentModerationGuardrail,
  keyword: keywordGuardrail,
  regex: regexGuardrail,
  pii: piiGuardrail,
  vector: vectorGuardrail,
  system_prompt_protection: systemPromptProtectionGuardrail,
} as const satisfies GuardrailRegistry;
