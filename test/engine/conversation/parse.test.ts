import { describe, expect, it } from "vitest";
import { checkInputFields } from "../../../src/engine/check-message-fields.js";
import { MAX_MESSAGES } from "../../../src/engine/conversation/messages.js";
import { parseMessages } from "../../../src/engine/conversation/parse.js";
import { messageTexts } from "../../../src/engine/conversation/texts.js";
import { InputError } from "../../../src/errors.js";

const refused = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return { status: (error as InputError).status, message: (error as Error).message };
  }
  throw new Error("expected an InputError");
};

describe("parseMessages", () => {
  it("reads the OpenAI chat shape, fields it does not know included", () => {
    const messages = parseMessages([
      { role: "system", content: "You are a mail assistant." },
      {
        role: "user",
        content: [
          { type: "text", text: "Summarise" },
          { type: "image_url", image_url: {} },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "read_mail", arguments: '{"n":1}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "Hi Bob", name: "read_mail" },
      { role: "developer", content: "Be brief." },
    ]);
    expect(messages.map((m, i) => messageTexts(m, i))).toEqual([
      { index: 0, role: "system", content: "You are a mail assistant.", skippedParts: 0, toolArguments: [] },
      { index: 1, role: "user", content: "Summarise", skippedParts: 1, toolArguments: [] },
      { index: 2, role: "assistant", content: "", skippedParts: 0, toolArguments: ['{"n":1}'] },
      { index: 3, role: "tool", content: "Hi Bob", skippedParts: 0, toolArguments: [] },
      { index: 4, role: "developer", content: "Be brief.", skippedParts: 0, toolArguments: [] },
    ]);
  });

  it.each([
    ["not an array", { role: "user" }, "messages: must be a list of chat messages"],
    ["an empty list", [], "messages: must hold at least one message"],
    ["an element that is no object", ["hi"], "messages[0]: must be an object with a role"],
    [
      "no role",
      [{ content: "hi" }],
      "messages[0].role: must be one of system, developer, user, assistant, tool",
    ],
    ["an unknown role", [{ role: "function", content: "x" }], "messages[0].role: must be one of"],
    [
      "a numeric content",
      [{ role: "user", content: 42 }],
      "messages[0].content: must be a string, null or a list",
    ],
    ["a text part without text", [{ role: "user", content: [{ type: "text" }] }], "messages[0].content"],
    ["a part without a type", [{ role: "user", content: [{ text: "x" }] }], "messages[0].content"],
    [
      "arguments that are not a string",
      [{ role: "assistant", tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }] }],
      "messages[0].tool_calls[0].function.arguments: must be a string",
    ],
    [
      "tool calls on a user message",
      [{ role: "user", content: "x", tool_calls: [] }],
      "messages[0].tool_calls: only an assistant message has tool calls",
    ],
    ["a numeric tool_call_id", [{ role: "tool", content: "x", tool_call_id: 7 }], "messages[0].tool_call_id"],
  ])("400 for %s", (_name, raw, message) => {
    const error = refused(() => parseMessages(raw));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it("refuses more than the documented number of messages", () => {
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => ({ role: "user", content: "hi" }));
    expect(refused(() => parseMessages(many)).message).toBe(
      `messages: must hold at most ${MAX_MESSAGES} messages`,
    );
    expect(() => parseMessages(many.slice(1))).not.toThrow();
  });
});

describe("checkInputFields", () => {
  const user = [{ role: "user", content: "hello" }];

  it("keeps a single message exactly as before", () => {
    expect(checkInputFields({ message: "hi" }, 10)).toEqual({ message: "hi" });
    expect(refused(() => checkInputFields({}, 10)).message).toBe("message is required and must be a string");
    expect(refused(() => checkInputFields({ message: "x".repeat(11) }, 10))).toEqual({
      status: 413,
      message: "message exceeds 10 characters",
    });
  });

  it("takes messages instead, a null message or null messages counting as absent", () => {
    expect(checkInputFields({ messages: user }, 100)).toEqual({ messages: user });
    expect(checkInputFields({ message: null, messages: user }, 100)).toEqual({ messages: user });
    expect(checkInputFields({ message: "hi", messages: null }, 100)).toEqual({ message: "hi" });
  });

  it("refuses both", () => {
    expect(refused(() => checkInputFields({ message: "hi", messages: user }, 100))).toEqual({
      status: 400,
      message: "send either message or messages, not both",
    });
  });

  it("applies the character limit to every text of the messages together", () => {
    const messages = [
      { role: "system", content: "a".repeat(40) },
      { role: "assistant", tool_calls: [{ function: { name: "f", arguments: "b".repeat(40) } }] },
      { role: "user", content: [{ type: "text", text: "c".repeat(30) }] },
    ];
    expect(refused(() => checkInputFields({ messages }, 100))).toEqual({
      status: 413,
      message: "the text of messages together exceeds 100 characters",
    });
    expect(checkInputFields({ messages }, 120)).toEqual({ messages });
    // After NFKC too, as for one message: U+FDFA is 18 characters.
    const wide = [{ role: "user", content: "\uFDFA".repeat(10) }];
    expect(refused(() => checkInputFields({ messages: wide }, 100)).message).toContain(
      "after Unicode normalization",
    );
  });
});
