import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Profile, parseProfile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails as registry } from "../../src/guardrails/registry.js";

const where = { file: "rules.yaml", stem: "rules" };
const engine = createEngine({ registry });

function profile(appliesTo?: unknown): Profile {
  const parsed = parseProfile(
    {
      guardrails: {
        keyword: {
          enabled: true,
          keywords: ["developer mode enabled"],
          ...(appliesTo ? { applies_to: appliesTo } : {}),
        },
        regex: {
          enabled: true,
          patterns: [{ name: "dev", pattern: "developer mode" }],
          applies_to: ["output"],
        },
      },
    },
    where,
    registry,
  );
  if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
  return parsed;
}

describe("applies_to", () => {
  const text = "I won't switch to developer mode enabled or anything like it.";

  it("limits a guardrail to prompts: output-check shows it disabled and is not flagged by it", async () => {
    const compiled = await compileProfile(profile(["input"]), registry);
    const input = await engine.inputCheck(text, compiled);
    expect(input.checks.keyword).toEqual({
      enabled: true,
      detected: true,
      matched: ["developer mode enabled"],
    });
    // regex applies to responses only here.
    expect(input.checks.regex).toEqual({ enabled: false, detected: false, matched: [] });
    const output = await engine.outputCheck(text, undefined, compiled);
    expect(output.checks.keyword).toEqual({ enabled: false, detected: false, matched: [] });
    expect(output.checks.regex).toEqual({ enabled: true, detected: true, matched: ["dev"] });
  });

  it("runs both ways without it", async () => {
    const compiled = await compileProfile(profile(), registry);
    expect((await engine.outputCheck(text, undefined, compiled)).checks.keyword).toMatchObject({
      detected: true,
    });
    expect((await engine.inputCheck(text, compiled)).checks.keyword).toMatchObject({ detected: true });
  });

  it("refuses an empty list or an unknown check, at the field's path", () => {
    for (const [value, message] of [
      [[], "list input, output or both"],
      [["prompt"], "applies_to"],
    ] as const) {
      const parsed = parseProfile(
        { guardrails: { keyword: { enabled: true, keywords: ["x"], applies_to: value } } },
        where,
        registry,
      );
      expect("problems" in parsed && parsed.problems.join("\n")).toContain(message);
      expect("problems" in parsed && parsed.problems.join("\n")).toContain("guardrails.keyword.applies_to");
    }
  });

  it("is not a setting of guardrails that check one side only", () => {
    const parsed = parseProfile(
      { guardrails: { llm: { enabled: true, applies_to: ["input"] } } },
      where,
      registry,
    );
    expect("problems" in parsed).toBe(true);
  });
});

describe("the bundled default profile", () => {
  it("checks injection phrases in prompts, not in responses that quote them", async () => {
    const raw = parse(readFileSync(new URL("../../profiles/default.yaml", import.meta.url), "utf8"));
    // Its rules as written; the model-backed guardrails (which need the encoder) off.
    for (const id of ["llm", "vector", "content_moderation", "system_prompt_protection"])
      raw.guardrails[id] = { enabled: false };
    const parsed = parseProfile(raw, { file: "default.yaml", stem: "default" }, registry);
    if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
    const compiled = await compileProfile(parsed, registry);
    const refusal = "I can't turn on 'developer mode enabled' or ignore all previous instructions.";
    const output = await engine.outputCheck(refusal, undefined, compiled);
    expect(output.checks.keyword).toEqual({ enabled: false, detected: false, matched: [] });
    expect(output.checks.regex).toEqual({ enabled: false, detected: false, matched: [] });
    expect(output.checks.pii).toMatchObject({ enabled: true });
  });
});
