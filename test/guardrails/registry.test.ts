import { describe, expect, it } from "vitest";
import { checkOrder, scoredGuardrails } from "../../src/guardrails/lists.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { type AnyGuardrailDefinition, type CheckMode, GUARDRAIL_IDS } from "../../src/guardrails/types.js";

const MODES: readonly CheckMode[] = ["input", "output"];
const entries: [string, AnyGuardrailDefinition][] = Object.entries(builtinGuardrails);

describe("the guardrail registry", () => {
  it("holds every guardrail id once, each under its own id", () => {
    expect(Object.keys(builtinGuardrails).sort()).toEqual([...GUARDRAIL_IDS].sort());
    for (const [key, definition] of entries) expect(definition.id).toBe(key);
  });

  it.each(entries)("puts %s in the checks of exactly the endpoints it applies to", (id, definition) => {
    expect(definition.appliesTo.length).toBeGreaterThan(0);
    for (const mode of MODES) {
      expect(checkOrder(builtinGuardrails, mode).includes(definition.id), `${id} on ${mode}`).toBe(
        definition.appliesTo.includes(mode),
      );
    }
  });

  it("orders the checks of each endpoint as the spec does", () => {
    expect(checkOrder(builtinGuardrails, "input")).toEqual(["llm", "keyword", "regex", "pii", "vector"]);
    expect(checkOrder(builtinGuardrails, "output")).toEqual([
      "content_moderation",
      "keyword",
      "regex",
      "pii",
      "system_prompt_protection",
    ]);
  });

  it("marks the model-backed guardrails as scored, the rules not", () => {
    expect(scoredGuardrails(builtinGuardrails).sort()).toEqual(
      ["content_moderation", "llm", "system_prompt_protection", "vector"].sort(),
    );
  });

  it("follows the order of an injected registry", () => {
    const { vector, ...rest } = builtinGuardrails;
    expect(checkOrder({ vector, ...rest }, "input")).toEqual(["vector", "llm", "keyword", "regex", "pii"]);
  });
});
