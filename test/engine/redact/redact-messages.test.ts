import { describe, expect, it } from "vitest";
import { parseProfile } from "../../../src/config/profile.js";
import { compileProfile } from "../../../src/engine/compile.js";
import { parseMessages } from "../../../src/engine/conversation/parse.js";
import { redactingPii, redactMessages } from "../../../src/engine/redact/redact-messages.js";
import { builtinGuardrails } from "../../../src/guardrails/registry.js";

const WHERE = { file: "profiles/p.yaml", stem: "p" };

async function profile(yaml: Record<string, unknown>) {
  const parsed = parseProfile({ name: "p", ...yaml }, WHERE, builtinGuardrails);
  if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
  return compileProfile(parsed, builtinGuardrails);
}

const REDACT = {
  guardrails: { pii: { enabled: true, action: "redact", entities: ["EMAIL_ADDRESS", "CREDIT_CARD"] } },
};

async function redact(raw: unknown[], yaml: Record<string, unknown> = REDACT) {
  const compiled = await profile(yaml);
  const pii = redactingPii(compiled);
  if (!pii) throw new Error("the profile does not redact");
  return redactMessages(raw, parseMessages(raw), compiled, pii);
}

describe("redactingPii", () => {
  it("is the pii guardrail only when its action is redact", async () => {
    expect(redactingPii(await profile(REDACT))?.id).toBe("pii");
    expect(redactingPii(await profile({ guardrails: { pii: { enabled: true } } }))).toBeUndefined();
  });

  it("refuses another action, naming the field", () => {
    const parsed = parseProfile(
      { name: "p", guardrails: { pii: { enabled: true, action: "mask" } } },
      WHERE,
      builtinGuardrails,
    );
    expect("problems" in parsed && parsed.problems.join("\n")).toContain(
      "guardrails.pii.action: must be flag or redact",
    );
  });
});

describe("redactMessages", () => {
  it("numbers placeholders per type, the same value the same placeholder, in the texts the profile scans", async () => {
    const raw = [
      { role: "system", content: "Support mail is help@example.com." },
      { role: "user", content: "I am jane@example.com,\nmy card is 4111 1111 1111 1111.", name: "jane" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "mail", arguments: '{"to":"bob@example.com"}' } },
        ],
      },
      {
        role: "tool",
        tool_call_id: "c1",
        content: [
          { type: "text", text: "Sent to bob@example.com and jane@example.com" },
          { type: "image_url", image_url: { url: "x" } },
        ],
      },
    ];
    const { messages, originals, counts } = await redact(raw);
    expect(messages).toEqual([
      raw[0],
      { role: "user", content: "I am <EMAIL_ADDRESS_1>,\nmy card is <CREDIT_CARD_1>.", name: "jane" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "mail", arguments: '{"to":"<EMAIL_ADDRESS_2>"}' } },
        ],
      },
      {
        role: "tool",
        tool_call_id: "c1",
        content: [
          { type: "text", text: "Sent to <EMAIL_ADDRESS_2> and <EMAIL_ADDRESS_1>" },
          { type: "image_url", image_url: { url: "x" } },
        ],
      },
    ]);
    expect(Object.fromEntries(originals)).toEqual({
      "<EMAIL_ADDRESS_1>": "jane@example.com",
      "<CREDIT_CARD_1>": "4111 1111 1111 1111",
      "<EMAIL_ADDRESS_2>": "bob@example.com",
    });
    expect(counts).toEqual({ EMAIL_ADDRESS: 4, CREDIT_CARD: 1 });
    // The request's own values are never changed.
    expect(raw[1]?.content).toContain("jane@example.com");
  });

  it("finds a value whose whitespace normalising collapsed, and keeps it as written", async () => {
    const { messages, originals } = await redact([
      { role: "user", content: "card 4111  1111\t1111 1111 ok" },
    ]);
    expect(messages).toEqual([{ role: "user", content: "card <CREDIT_CARD_1> ok" }]);
    expect(originals.get("<CREDIT_CARD_1>")).toBe("4111  1111\t1111 1111");
  });

  it("sends the normalised text when a value cannot be found as written (NFKC changed it)", async () => {
    // Full-width digits: NFKC makes them ASCII, so the card is found only in the normalised text.
    const { messages } = await redact([
      { role: "user", content: "card ４１１１ １１１１ １１１１ １１１１ ok" },
    ]);
    expect(messages).toEqual([{ role: "user", content: "card <CREDIT_CARD_1> ok" }]);
  });

  it("follows the profile's conversation settings: a role it does not scan for pii is left alone", async () => {
    const yaml = { ...REDACT, conversation: { scan: { tool: ["keyword"] } } };
    const raw = [
      { role: "user", content: "me: jane@example.com" },
      { role: "tool", content: "them: bob@example.com" },
    ];
    const { messages } = await redact(raw, yaml);
    expect(messages).toEqual([{ role: "user", content: "me: <EMAIL_ADDRESS_1>" }, raw[1]]);
  });
});
