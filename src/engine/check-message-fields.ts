import { InputError } from "../errors.js";
import { checkFields, checkLength } from "./check-fields.js";
import type { ChatMessage } from "./conversation/messages.js";
import { outputContext } from "./conversation/output-context.js";
import { parseMessages } from "./conversation/parse.js";
import { allText, messageTexts } from "./conversation/texts.js";

/** What input-check reads: one `message` (the spec's), or a conversation (docs/conversations.md). */
export type InputFields = { readonly message: string } | { readonly messages: readonly ChatMessage[] };

/** What output-check reads: the response, and what its prompt and system prompt were. */
export interface OutputFields {
  readonly message: string;
  readonly prompt?: string;
  readonly context?: string;
  /** From the `messages` it answers (system and developer ones): see output-context.ts. */
  readonly systemPrompt?: string;
}

const absent = (value: unknown) => value === undefined || value === null;

/** Parses `messages` and holds every text of them together to the character limit. */
function checkedMessages(raw: unknown, limit: number): ChatMessage[] {
  const messages = parseMessages(raw);
  checkLength("the text of messages together exceeds", allText(messages.map(messageTexts)), limit);
  return messages;
}

/**
 * input-check's fields, for the server and the library alike: exactly one of `message` and
 * `messages` (null counts as absent). Without `messages` this is checkFields, word for word, so a
 * single `message` is refused as it always was. The character limit covers every text of the
 * messages together, whatever the profile scans: one request is never more work than one `message`
 * at the limit.
 */
export function checkInputFields(
  fields: { message?: unknown; messages?: unknown },
  limit: number,
): InputFields {
  if (absent(fields.messages)) return checkFields({ message: fields.message }, limit);
  if (!absent(fields.message)) throw new InputError(400, "send either message or messages, not both");
  return { messages: checkedMessages(fields.messages, limit) };
}

/**
 * output-check's fields: checkFields' own, and `messages`, the conversation the response answers.
 * From it come the prompt (the last user turn, unless `prompt` is sent) and the system prompt.
 */
export function checkOutputFields(
  fields: { message: unknown; prompt?: unknown; context?: unknown; messages?: unknown },
  limit: number,
): OutputFields {
  const checked = checkFields(fields, limit);
  if (absent(fields.messages)) return checked;
  const { prompt, systemPrompt } = outputContext(checkedMessages(fields.messages, limit));
  return {
    ...checked,
    ...(checked.prompt === undefined && prompt !== undefined ? { prompt } : {}),
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
  };
}
