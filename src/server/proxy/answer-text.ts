import type { Originals, Restorer } from "../../engine/redact/placeholders.js";
import { restore } from "../../engine/redact/placeholders.js";

/**
 * What output-check reads of a model's answer: its content, then each tool call's arguments, a
 * line break between them (and a refusal's text, and a legacy `function_call`'s arguments). A streamed answer's fragments are joined the same way in the order they
 * come, so a stream and the same answer in JSON are checked as the same text.
 */
export function answerJoiner() {
  let last: string | undefined;
  return (key: string, fragment: unknown): string => {
    if (typeof fragment !== "string" || fragment === "") return "";
    const gap = last !== undefined && last !== key ? "\n" : "";
    last = key;
    return gap + fragment;
  };
}

export type Json = Record<string, unknown>;
type ToolCall = { index?: number; function?: Json };

const toolCalls = (holder: Json | undefined) =>
  Array.isArray(holder?.tool_calls) ? (holder.tool_calls as ToolCall[]) : [];

/**
 * The text of one JSON choice's `message`, or of one stream chunk's `delta` (`join` keeps the
 * state): its content and refusal, each tool call's arguments and the legacy `function_call`'s.
 */
export function answerText(holder: Json | undefined, join = answerJoiner()): string {
  let text = join("content", holder?.content) + join("refusal", holder?.refusal);
  toolCalls(holder).forEach((call, i) => {
    text += join(`tool:${call.index ?? i}`, call.function?.arguments);
  });
  return text + join("function", (holder?.function_call as Json | undefined)?.arguments);
}

/** A JSON choice's message with the placeholders put back: content, refusal, tool-call arguments. */
export function restoreMessage(message: Json, originals: Originals): Json {
  const put = (value: unknown) => (typeof value === "string" ? restore(value, originals) : value);
  const calls = toolCalls(message).map((call) =>
    call.function
      ? { ...call, function: { ...call.function, arguments: put(call.function.arguments) } }
      : call,
  );
  return {
    ...message,
    ...("content" in message ? { content: put(message.content) } : {}),
    ...("refusal" in message ? { refusal: put(message.refusal) } : {}),
    ...("tool_calls" in message ? { tool_calls: calls } : {}),
  };
}

/** A stream chunk's delta with the placeholders put back through each field's own restorer. */
export function restoreDelta(delta: Json, restorer: (key: string) => Restorer): Json {
  const calls = toolCalls(delta).map((call, i) => {
    const args = call.function?.arguments;
    if (typeof args !== "string") return call;
    return {
      ...call,
      function: { ...call.function, arguments: restorer(`tool:${call.index ?? i}`).push(args) },
    };
  });
  return {
    ...delta,
    ...(typeof delta.content === "string" ? { content: restorer("content").push(delta.content) } : {}),
    ...("tool_calls" in delta ? { tool_calls: calls } : {}),
  };
}
