import type { ChatMessage } from "./messages.js";
import { messageTexts } from "./texts.js";

/** What output-check takes from the conversation a response answers (docs/conversations.md). */
export interface OutputContext {
  /** The last user turn: the prompt that produced the response. */
  readonly prompt?: string;
  /** The system and developer messages, joined: the instructions a leak would disclose. */
  readonly systemPrompt?: string;
}

export function outputContext(messages: readonly ChatMessage[]): OutputContext {
  const texts = messages.map(messageTexts);
  const prompt = texts.findLast((m) => m.role === "user" && m.content !== "")?.content;
  const system = texts.filter((m) => (m.role === "system" || m.role === "developer") && m.content !== "");
  const systemPrompt = system.map((m) => m.content).join("\n\n");
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(systemPrompt === "" ? {} : { systemPrompt }),
  };
}
