import { z } from "zod";
import { GUARDRAIL_IDS } from "../guardrails/types.js";

/**
 * A profile's `conversation:` block: what input-check scans of a `messages` array
 * (docs/conversations.md). Each key names the guardrails that read that kind of text; `all` is every
 * enabled input guardrail. The defaults: a user turn and a tool result are untrusted (anyone may
 * have written an e-mail or a web page a tool returns); system and developer messages are the app's
 * own words, never flagged as injection; an assistant's text was the model's (output-check judged
 * it); tool-call arguments are what leaves through a tool, so secrets and personal data are looked
 * for there, with the profile's own keywords and patterns.
 */
const guardrails = z.union([z.literal("all"), z.array(z.enum(GUARDRAIL_IDS))], {
  error: `must be all or a list of guardrails (${GUARDRAIL_IDS.join(", ")})`,
});

export const SCANNED_TEXTS = ["system", "developer", "user", "assistant", "tool", "tool_arguments"] as const;
export type ScannedText = (typeof SCANNED_TEXTS)[number];

type Guardrails = z.output<typeof guardrails>;

const DEFAULT_SCAN: Record<ScannedText, Guardrails> = {
  system: [],
  developer: [],
  user: "all",
  assistant: [],
  tool: "all",
  tool_arguments: ["pii", "keyword", "regex"],
};

/** How many of the latest messages are read unless the profile says: an agent's run, tool results included. */
export const DEFAULT_LOOKBACK = 50;

const scanShape = Object.fromEntries(
  SCANNED_TEXTS.map((key) => [key, guardrails.default(DEFAULT_SCAN[key])]),
) as Record<ScannedText, z.ZodDefault<typeof guardrails>>;

export const conversationSettings = z.strictObject({
  /** The latest this many messages are scanned; earlier ones are not read (bounds a request's work). */
  lookback: z
    .number()
    .int("must be a whole number")
    .min(1, "must be ≥ 1")
    .max(256, "must be ≤ 256")
    .default(DEFAULT_LOOKBACK),
  scan: z.strictObject(scanShape).prefault({}),
});

export type ConversationSettings = z.output<typeof conversationSettings>;

/** The settings of a profile without a `conversation:` block. */
export const DEFAULT_CONVERSATION: ConversationSettings = conversationSettings.parse({});
