import type { ConversationSettings, ScannedText } from "../../config/conversation.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { Role } from "./messages.js";
import type { MessageTexts } from "./texts.js";

/** Where a scanned text came from: a message's content, or the arguments of its tool calls. */
export type PartSource = "content" | "tool_arguments";

/** One text of a conversation and the guardrails that read it. */
export interface ScanPart {
  /** The message's index in the request's `messages`. */
  readonly index: number;
  readonly role: Role;
  readonly source: PartSource;
  readonly text: string;
  readonly guardrails: ReadonlySet<GuardrailId>;
}

/**
 * What input-check reads of a conversation under a profile's `conversation:` settings: each of
 * the latest `lookback` messages' content, by the guardrails its role names, and its tool calls'
 * arguments (joined, one text per message), by those `tool_arguments` names; only guardrails the
 * profile enables (`enabled`, in their order). Empty texts and texts no guardrail reads are left out.
 */
export function scanPlan(
  messages: readonly MessageTexts[],
  settings: ConversationSettings,
  enabled: readonly GuardrailId[],
): ScanPart[] {
  const readers = (key: ScannedText): ReadonlySet<GuardrailId> => {
    const chosen = settings.scan[key];
    return new Set(chosen === "all" ? enabled : enabled.filter((id) => chosen.includes(id)));
  };
  const byKey = new Map<ScannedText, ReadonlySet<GuardrailId>>();
  const readersOf = (key: ScannedText) =>
    byKey.get(key) ?? byKey.set(key, readers(key)).get(key) ?? new Set();
  const first = Math.max(0, messages.length - settings.lookback);
  return messages.slice(first).flatMap((m) => {
    const texts: [PartSource, ScannedText, string][] = [
      ["content", m.role, m.content],
      ["tool_arguments", "tool_arguments", m.toolArguments.join("\n")],
    ];
    return texts.flatMap(([source, key, text]) => {
      const guardrails = readersOf(key);
      if (text === "" || guardrails.size === 0) return [];
      return [{ index: m.index, role: m.role, source, text, guardrails }];
    });
  });
}
