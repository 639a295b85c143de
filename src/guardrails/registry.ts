import { contentModerationGuardrail } from "./content-moderation/index.js";
import { keywordGuardrail } from "./keyword/index.js";
import { llmGuardrail } from "./llm/index.js";
import { piiGuardrail } from "./pii/index.js";
import { regexGuardrail } from "./regex/index.js";
import { systemPromptProtectionGuardrail } from "./system-prompt-protection/index.js";
import type { AnyGuardrailDefinition, GuardrailId } from "./types.js";
import { vectorGuardrail } from "./vector/index.js";

export type GuardrailRegistry = Readonly<Record<GuardrailId, AnyGuardrailDefinition>>;

/** Every guardrail of the spec, in the order the response's `checks` objects list them. */
export const builtinGuardrails = {
  llm: llmGuardrail,
  vector: vectorGuardrail,
  keyword: keywordGuardrail,
  regex: regexGuardrail,
  pii: piiGuardrail,
  content_moderation: contentModerationGuardrail,
  system_prompt_protection: systemPromptProtectionGuardrail,
} as const satisfies GuardrailRegistry;
