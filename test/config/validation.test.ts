import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { fixture, problemsOf } from "./helpers.js";

const load = (name: string) => loadConfig(fixture(name), builtinGuardrails);

// Every message names the file, the field path and what to do about it.
describe("config validation errors", () => {
  it("names an unknown guardrail and lists the known ones", async () => {
    const [problem] = await problemsOf(load("unknown-guardrail"));
    expect(problem).toContain(join(fixture("unknown-guardrail"), "profiles", "default.yaml"));
    expect(problem).toContain("default.yaml:3:3: guardrails.keywords: unknown field");
    expect(problem).toContain("known guardrails: llm, vector, keyword, regex, pii");
  });

  it("rejects a threshold above 1 at its field path", async () => {
    const [problem] = await problemsOf(load("threshold-above-one"));
    expect(problem).toMatch(
      /default\.yaml:4:16: guardrails\.system_prompt_protection\.threshold: must be ≤ 1$/,
    );
  });

  it("names an unknown moderation category at its index and lists the valid ones", async () => {
    const [problem] = await problemsOf(load("moderation-unknown-category"));
    expect(problem).toMatch(
      /default\.yaml:4:24: guardrails\.content_moderation\.categories\[1\]: unknown moderation category "CYBER_CRIME"; valid: VIOLENCE, WEAPONS, CRIMINAL, CYBERCRIME, .*, UNETHICAL$/,
    );
  });

  it("refuses two default profiles and says to keep one", async () => {
    const [problem] = await problemsOf(load("two-defaults"));
    expect(problem).toContain("lenient and strict are both marked default; keep default: true on one");
  });

  it("names an app's unknown profile and the known ones", async () => {
    const [problem] = await problemsOf(load("app-with-unknown-profile"));
    expect(problem).toMatch(
      /apps\.yaml:4:14: apps\[0\]\.profile: unknown profile "strcit" \(known: default\)$/,
    );
  });

  it("reports a broken profile once, not again through the apps bound to it", async () => {
    const problems = await problemsOf(load("broken-profile-bound-by-apps"));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/default\.yaml:4:14: guardrails\.keyword\.enabled: /);
    expect(problems[1]).toMatch(/support-bot\.yaml:3:3: guardrails\.regx: unknown field/);
    // An app bound to a profile that does not exist at all is still reported.
    expect(problems[2]).toMatch(
      /apps\.yaml:10:14: apps\[2\]\.profile: unknown profile "stirct" \(known: none\)$/,
    );
  });

  it("refuses duplicate App IDs", async () => {
    const [problem] = await problemsOf(load("duplicate-app-ids"));
    expect(problem).toMatch(/apps\.yaml:6:9: apps\[1\]\.id: duplicate App ID/);
  });

  it("names a model-backed guardrail's conflicting settings and the fix", async () => {
    const [problem] = await problemsOf(load("system-prompt-twice"));
    expect(problem).toMatch(
      /default\.yaml:\d+:\d+: guardrails\.system_prompt_protection\.system_prompt_file: set system_prompt or system_prompt_file, not both$/,
    );
  });

  it("points at the line and column of broken YAML", async () => {
    // Written at run time: a broken .yaml file in the tree would break the linter's own YAML parse.
    const dir = await mkdtemp(join(tmpdir(), "guardrail-invalid-yaml-"));
    await mkdir(join(dir, "profiles"));
    await writeFile(
      join(dir, "profiles", "default.yaml"),
      "guardrails:\n  keyword:\n    enabled: true\n   keywords: [a\n",
    );
    const problems = await problemsOf(loadConfig(dir, builtinGuardrails));
    expect(problems[0]).toMatch(/profiles\/default\.yaml:4:\d+: invalid YAML: /);
  });

  it.each([
    // The yaml library pointed at `true` on line 3: the line above the one to fix.
    [
      "a line indented deeper than the one above",
      "guardrails:\n  keyword:\n    enabled: true\n      keywords: [a]\n",
      4,
      7,
    ],
    ["a missing colon", "default: true\nguardrails\n  keyword: {}\n", 2, 1],
    ["a key and value where a value was expected", "default: a: b\n", 1, 10],
  ])("points at the line to fix: %s", async (_name, yaml, line, col) => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-invalid-yaml-"));
    await mkdir(join(dir, "profiles"));
    await writeFile(join(dir, "profiles", "default.yaml"), yaml);
    const problems = await problemsOf(loadConfig(dir, builtinGuardrails));
    expect(problems[0]).toContain(`profiles/default.yaml:${line}:${col}: invalid YAML: `);
  });

  it("gives field errors a line too: the value, an unknown key, or the parent of a missing field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-field-lines-"));
    await mkdir(join(dir, "profiles"));
    await writeFile(
      join(dir, "profiles", "default.yaml"),
      "default: true\nguardrails:\n  keyword:\n    enabled: true\n    keywordz: [a]\n  llm: { threshold: 2 }\n",
    );
    const problems = await problemsOf(loadConfig(dir, builtinGuardrails));
    expect(problems).toEqual([
      expect.stringMatching(/default\.yaml:6:21: guardrails\.llm\.threshold: must be ≤ 1$/),
      expect.stringMatching(/default\.yaml:5:5: guardrails\.keyword\.keywordz: unknown field/),
      expect.stringMatching(/default\.yaml:3:3: guardrails\.keyword\.keywords: is empty/),
    ]);
  });

  it("names the file of a YAML alias bomb instead of failing as an internal error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-alias-bomb-"));
    await mkdir(join(dir, "profiles"));
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(
        `${name}: &${name} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`,
      );
    }
    await writeFile(
      join(dir, "profiles", "default.yaml"),
      `description: laughs\nx:\n${levels.map((l) => `  ${l}`).join("\n")}\n`,
    );
    try {
      const problems = await problemsOf(loadConfig(dir, builtinGuardrails));
      expect(problems[0]).toMatch(/profiles\/default\.yaml: invalid YAML: .*alias/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("loads a valid directory", async () => {
    const config = await load("valid");
    expect([...config.profiles.keys()]).toEqual(["default", "strict"]);
    expect(config.defaultProfile?.name).toBe("default");
    expect(config.apps.get("app_web00001")?.profile).toBe("strict");
  });
});
