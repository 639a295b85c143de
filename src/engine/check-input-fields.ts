import { InputError } from "../errors.js";
import { checkFields, checkLength } from "./check-fields.js";
import type { ChatMessage } from "./conversation/messages.js";
import { parseMessages } from "./conversation/parse.js";
import { allText, messageTexts } from "./conversation/texts.js";

/** What input-check reads: one `message` (the spec's), or a conversation (docs/conversations.md). */
export type InputFields = { readonly message: string } | { readonly messages: readonly ChatMessage[] };

/**
 * input-check's fields, for the server and the library alike: exactly one of `message` and
 * `messages` (a null `message` beside `messages` counts as absent). Without `messages` this is
 * checkFields, word for word, so a single `message` is refused as it always was. The character
 * limit covers every text of the messages together, whatever the profile scans: one request is
 * never more work than one `message` at the limit.
 */
export function checkInputFields(
  fields: { message?: unknown; messages?: unknown },
  limit: number,
): InputFields {
  if ((fields.messages ?? undefined) === undefined) return checkFields({ message: fields.message }, limit);
  if (fields.message !== undefined && fields.message !== null) {
    throw new InputError(400, "send either message or messages, not both");
  }
  const messages = parseMessages(fields.messages);
  checkLength("the text of messages together exceeds", allText(messages.map(messageTexts)), limit);
  return { messages };
}
