import { describe, expect, it } from "vitest";
import { DEFAULT_CONVERSATION } from "../../src/config/conversation.js";
import { parseProfile } from "../../src/config/profile.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";

const parse = (raw: unknown) => parseProfile(raw, { file: "p.yaml", stem: "p" }, builtinGuardrails);

describe("a profile's conversation block", () => {
  it("defaults: user turns and tool results fully, tool-call arguments by pii, keyword and regex", () => {
    const profile = parse({});
    expect("conversation" in profile && profile.conversation).toEqual(DEFAULT_CONVERSATION);
    expect(DEFAULT_CONVERSATION).toEqual({
      lookback: 50,
      scan: {
        system: [],
        developer: [],
        user: "all",
        assistant: [],
        tool: "all",
        tool_arguments: ["pii", "keyword", "regex"],
      },
    });
  });

  it("keeps what a profile sets and defaults the rest", () => {
    const profile = parse({ conversation: { lookback: 8, scan: { tool: ["llm", "pii"] } } });
    expect("conversation" in profile && profile.conversation).toEqual({
      lookback: 8,
      scan: { ...DEFAULT_CONVERSATION.scan, tool: ["llm", "pii"] },
    });
  });

  it.each([
    [{ lookback: 0 }, "p.yaml: conversation.lookback: must be ≥ 1"],
    [{ lookback: 2.5 }, "p.yaml: conversation.lookback: must be a whole number"],
    [
      { scan: { tool: ["llm", "nope"] } },
      "p.yaml: conversation.scan.tool: must be all or a list of guardrails",
    ],
    [{ scan: { tool: "some" } }, "p.yaml: conversation.scan.tool: must be all or a list of guardrails"],
    [
      { scan: { user: ["llm", "content_moderation"] } },
      "p.yaml: conversation.scan.user[1]: content_moderation checks responses only",
    ],
    [{ scan: { function: [] } }, "p.yaml: conversation.scan.function: unknown field"],
    [{ turns: 3 }, "p.yaml: conversation.turns: unknown field"],
  ])("names the field of %j", (conversation, problem) => {
    const result = parse({ conversation });
    expect("problems" in result && result.problems[0]).toContain(problem);
  });
});
