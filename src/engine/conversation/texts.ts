import type { ChatMessage, Role } from "./messages.js";

/** The text one message carries, read once: what scanning and the length limit both count. */
export interface MessageTexts {
  readonly index: number;
  readonly role: Role;
  /** Its content: the string, or its text parts joined by newlines; empty for null or none. */
  readonly content: string;
  /** Content parts that are not text (images, audio, files): never read, only counted. */
  readonly skippedParts: number;
  /** Each tool call's `function.arguments` (an assistant's); JSON text as the model wrote it. */
  readonly toolArguments: readonly string[];
}

export function messageTexts(message: ChatMessage, index: number): MessageTexts {
  const { content } = message;
  const parts = Array.isArray(content) ? content : [];
  const texts = parts.flatMap((p) => (p.type === "text" && typeof p.text === "string" ? [p.text] : []));
  return {
    index,
    role: message.role,
    content: typeof content === "string" ? content : texts.join("\n"),
    skippedParts: parts.length - texts.length,
    toolArguments: (message.tool_calls ?? []).map((call) => call.function.arguments),
  };
}

/** Every text of a conversation as one string, for the character limit (see check-message-fields.ts). */
export function allText(messages: readonly MessageTexts[]): string {
  return messages.flatMap((m) => [m.content, ...m.toolArguments]).join("\n");
}
