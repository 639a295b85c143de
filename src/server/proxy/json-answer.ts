import type { Originals } from "../../engine/redact/placeholders.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { AnswerCheck } from "./answer-check.js";
import { answerText, type Json, restoreMessage } from "./answer-text.js";

/** What a JSON answer became: its new body (undefined when unchanged) and what flagged, if anything. */
export interface JsonVerdict {
  readonly body?: Json;
  readonly blocked: readonly GuardrailId[];
}

/**
 * output-check of each choice of a chat completion. A flagged choice keeps its index and loses its
 * content: `message` becomes `{"role":"assistant","content":null}` and `finish_reason`
 * `content_filter` (docs/proxy.md). The others get their placeholders back.
 */
export async function guardJsonAnswer(
  completion: Json,
  verdicts: AnswerCheck,
  originals: Originals,
): Promise<JsonVerdict> {
  const choices = completion.choices as Json[];
  const blocked = new Set<GuardrailId>();
  let changed = false;
  const out: Json[] = [];
  for (const choice of choices) {
    const message = (choice.message ?? {}) as Json;
    if (await verdicts.flags(answerText(message))) {
      for (const id of verdicts.flaggedBy()) blocked.add(id);
      changed = true;
      out.push({
        ...choice,
        message: { role: "assistant", content: null },
        finish_reason: "content_filter",
        ...("logprobs" in choice ? { logprobs: null } : {}),
      });
      continue;
    }
    const restored = originals.size > 0 ? restoreMessage(message, originals) : message;
    if (JSON.stringify(restored) !== JSON.stringify(message)) changed = true;
    out.push({ ...choice, message: restored });
  }
  return { ...(changed ? { body: { ...completion, choices: out } } : {}), blocked: [...blocked] };
}

/** Whether a parsed answer is a chat completion the proxy can check: choices with messages. */
export function isCompletion(value: unknown): value is Json {
  const choices = (value as Json | null)?.choices;
  return (
    Array.isArray(choices) &&
    choices.every((c) => typeof c === "object" && c !== null && typeof (c as Json).message === "object")
  );
}
