import { issuePath } from "../../config/issues.js";
import { InputError } from "../../errors.js";
import { type ChatMessage, chatMessages } from "./messages.js";

/**
 * Validates a request's `messages`; a 400 names the first problem with its path
 * (`messages[2].role: must be one of …`), as profile errors name their field.
 */
export function parseMessages(raw: unknown): ChatMessage[] {
  const parsed = chatMessages.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? issuePath(["messages", ...issue.path]) : "messages";
  throw new InputError(400, `${path}: ${issue?.message ?? "invalid"}`);
}
