import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Profile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails, type GuardrailRegistry } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition, GuardrailId } from "../../src/guardrails/types.js";
import { boomKeyword } from "../helpers/boom-keyword.js";
import { fakeEncoder } from "../helpers/fake-encoder.js";

const settings = z.strictObject({ enabled: z.boolean().default(false) });

/** Reads the shared windows (llm) or sentence pieces (vector) and scores how many it saw. */
const reader = (base: AnyGuardrailDefinition, what: "embedding" | "pieces"): AnyGuardrailDefinition => ({
  ...base,
  settings,
  create: () => ({
    check: async (request) => {
      const embedded = await request[what]?.();
      const n = embedded?.vectors.length ?? -1;
      return { flagged: n > 3, score: n };
    },
  }),
});
const registry: GuardrailRegistry = {
  ...builtinGuardrails,
  llm: reader(builtinGuardrails.llm, "embedding"),
  vector: reader(builtinGuardrails.vector, "pieces"),
  keyword: boomKeyword,
};

const profile = (name: string, enabled: GuardrailId[], onError: Profile["onError"] = "block"): Profile => ({
  name,
  isDefault: false,
  onError,
  file: `/tmp/${name}.yaml`,
  guardrails: Object.fromEntries(
    Object.keys(builtinGuardrails).map((id) => [id, { enabled: enabled.includes(id as GuardrailId) }]),
  ) as Profile["guardrails"],
});

// Enough sentences for several windows, so the pieces are embedded too.
const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says a few words more.`).join(" ");
/** An outcome without its clock readings, which differ between any two runs. */
const strip = (o: { body: { execution_time: number }; timings: object }) => ({
  ...o,
  body: { ...o.body, execution_time: 0 },
  timings: Object.keys(o.timings).sort(),
});

describe("checking one text with several profiles", () => {
  it("embeds each window once for both profiles, where two checks embed it twice", async () => {
    const a = await compileProfile(profile("a", ["llm", "vector"]), registry);
    const b = await compileProfile(profile("b", ["llm", "vector", "keyword"]), registry);
    const together = fakeEncoder();
    const both = await createEngine({ registry, encoder: together }).checkEach("input", long, [a, b]);
    const apart = fakeEncoder();
    const engine = createEngine({ registry, encoder: apart });
    const alone = [await engine.check("input", long, a), await engine.check("input", long, b)];
    // Windows and pieces: two model runs for the pair, four for two separate checks.
    expect(apart.calls).toHaveLength(4);
    expect(together.calls).toHaveLength(2);
    expect(together.calls.flat().sort()).toEqual(apart.calls.slice(0, 2).flat().sort());
    expect(both.map(strip)).toEqual(alone.map(strip));
    expect(both[0]?.body.checks.llm).toMatchObject({ score: expect.any(Number) });
  });

  it("gives each profile its own verdict and its own on_error", async () => {
    const a = await compileProfile(profile("a", ["keyword"], "block"), registry);
    const b = await compileProfile(profile("b", ["keyword"], "allow"), registry);
    const engine = createEngine({ registry });
    const [blocked, allowed] = await engine.checkEach("input", "boom", [a, b]);
    expect(blocked?.body.injection_detected).toBe(true);
    expect(allowed?.body.injection_detected).toBe(false);
    expect(blocked?.failures.map((f) => f.guardrail)).toEqual(["keyword"]);
    const c = await compileProfile(profile("c", []), registry);
    const [flagged, clean] = await engine.checkEach("input", "a bad text", [a, c]);
    expect(flagged?.flaggedBy).toEqual(["keyword"]);
    expect(clean?.body.injection_detected).toBe(false);
  });

  it("with one profile is the plain check", async () => {
    const a = await compileProfile(profile("a", ["llm", "vector"]), registry);
    const encoder = fakeEncoder();
    const engine = createEngine({ registry, encoder });
    const [one] = await engine.checkEach("input", long, [a]);
    expect(strip(one as NonNullable<typeof one>)).toEqual(strip(await engine.check("input", long, a)));
  });
});
