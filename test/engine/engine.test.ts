import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Profile } from "../../src/config/profile.js";
import { compileNotes, compileProfile } from "../../src/engine/compile.js";
import { createEngine } from "../../src/engine/engine.js";
import type { GuardrailRegistry } from "../../src/guardrails/registry.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { GuardrailId } from "../../src/guardrails/types.js";
import { boomKeyword } from "../helpers/boom-keyword.js";

const registry: GuardrailRegistry = { ...builtinGuardrails, keyword: boomKeyword };

function profile(enabled: GuardrailId[], onError: Profile["onError"] = "block"): Profile {
  const guardrails = Object.fromEntries(
    Object.keys(builtinGuardrails).map((id) => [id, { enabled: enabled.includes(id as GuardrailId) }]),
  ) as Profile["guardrails"];
  return { name: "test", isDefault: true, onError, guardrails, file: "/tmp/test.yaml" };
}

const engine = createEngine({ registry });

describe("engine", () => {
  it("lists every input guardrail, disabled ones in the spec's disabled shape", async () => {
    const body = await engine.inputCheck("hello", await compileProfile(profile([]), registry));
    expect(body.injection_detected).toBe(false);
    expect(Object.keys(body.checks)).toEqual(["llm", "keyword", "regex", "pii", "vector"]);
    expect(body.checks.llm).toEqual({ enabled: false, score: null, threshold: null });
    expect(body.checks.vector).toEqual({ enabled: false, score: null });
    expect(body.checks.keyword).toEqual({ enabled: false, detected: false, matched: [] });
    expect(body.checks.pii).toEqual({ enabled: false, detected: false, entities: [] });
    expect(typeof body.execution_time).toBe("number");
  });

  it("lists every output guardrail, disabled ones in the spec's disabled shape", async () => {
    const body = await engine.outputCheck("hello", undefined, await compileProfile(profile([]), registry));
    expect(Object.keys(body.checks)).toEqual([
      "content_moderation",
      "keyword",
      "regex",
      "pii",
      "system_prompt_protection",
    ]);
    expect(body.checks.content_moderation).toEqual({
      enabled: false,
      result: null,
      unsafe: false,
      category: null,
      signals: null,
    });
    expect(body.checks.system_prompt_protection).toEqual({
      enabled: false,
      detected: false,
      score: null,
      threshold: null,
    });
  });

  it("flags when an enabled guardrail flags, and only then", async () => {
    const compiled = await compileProfile(profile(["keyword"]), registry);
    const flagged = await engine.inputCheck("a bad prompt", compiled);
    expect(flagged.injection_detected).toBe(true);
    expect(flagged.checks.keyword).toEqual({ enabled: true, detected: true, matched: ["bad"] });
    const clean = await engine.inputCheck("a fine prompt", compiled);
    expect(clean.injection_detected).toBe(false);
    expect(clean.checks.keyword).toEqual({ enabled: true, detected: false, matched: [] });
  });

  it("turns a failing guardrail into the profile's on_error verdict, never a crash", async () => {
    const blocked = await engine.check(
      "input",
      "boom",
      await compileProfile(profile(["keyword"], "block"), registry),
    );
    expect(blocked.body.injection_detected).toBe(true);
    expect(blocked.failures.map((f) => f.guardrail)).toEqual(["keyword"]);
    expect(blocked.failures[0]?.error.message).toBe("detector exploded");
    const allowed = await engine.check(
      "input",
      "boom",
      await compileProfile(profile(["keyword"], "allow"), registry),
    );
    expect(allowed.body.injection_detected).toBe(false);
  });

  it("reports execution_time in seconds from the injected clock", async () => {
    let t = 1000;
    const timed = createEngine({ registry, now: () => (t += 250) });
    const body = await timed.inputCheck("hi", await compileProfile(profile([]), registry));
    expect(body.execution_time).toBe(0.25);
  });

  it("times every guardrail that ran for the check, failed ones too, and no other", async () => {
    let t = 0;
    const timed = createEngine({ registry, now: () => (t += 5) });
    const compiled = await compileProfile(profile(["keyword", "pii", "content_moderation"]), registry);
    const { timings, failures } = await timed.check("input", "boom", compiled);
    expect(failures.map((f) => f.guardrail)).toEqual(["keyword"]);
    // content_moderation is output-only: it did not run, so it has no time.
    expect(Object.keys(timings).sort()).toEqual(["keyword", "pii"]);
    for (const ms of Object.values(timings)) expect(ms).toBeGreaterThan(0);
  });

  it("times a detector that answers at once to its return, one that awaits to its settling", async () => {
    let t = 0;
    const settings = z.strictObject({ enabled: z.boolean().default(false) });
    // On a clock that moves only when a detector works: regex takes 100, pii 50 before it awaits and 30 after.
    const working: GuardrailRegistry = {
      ...registry,
      regex: {
        ...builtinGuardrails.regex,
        settings,
        create: () => ({
          check: () => {
            t += 100;
            return { flagged: false };
          },
        }),
      },
      pii: {
        ...builtinGuardrails.pii,
        settings,
        create: () => ({
          check: async () => {
            t += 50;
            await null;
            t += 30;
            return { flagged: false };
          },
        }),
      },
    };
    const timed = createEngine({ registry: working, now: () => t });
    const { timings } = await timed.check(
      "input",
      "hi",
      await compileProfile(profile(["regex", "pii"]), working),
    );
    // Not 150: pii's first part ran before regex's finding was read, but it is not regex's time.
    expect(timings.regex).toBe(100);
    expect(timings.pii).toBeGreaterThanOrEqual(80);
  });

  it("collects detectors' build notes, prefixed with profile and guardrail, for the edges to report", async () => {
    const noted: GuardrailRegistry = {
      ...registry,
      keyword: {
        ...boomKeyword,
        create: () => ({ check: () => ({ flagged: false }), notes: ["index rebuilt"] }),
      },
    };
    const compiled = await compileProfile(profile(["keyword"]), noted);
    expect(compileNotes(compiled)).toEqual(["test: keyword: index rebuilt"]);
  });
});
