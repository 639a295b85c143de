import { describe, expect, it } from "vitest";
import { parseProfile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { createEngine } from "../../src/engine/engine.js";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/index.js";
import { builtinGuardrails as registry } from "../../src/guardrails/registry.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/encoder.js";

const encoder = createUseLiteEncoder({ autoBuild: false });
const engine = createEngine({ registry, encoder });

async function profile(settings: Record<string, unknown>) {
  const parsed = parseProfile(
    { guardrails: { content_moderation: { enabled: true, ...settings } } },
    { file: "m.yaml", stem: "m" },
    registry,
  );
  if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
  return compileProfile(parsed, registry, encoder);
}

const CONTEXT = "Honestly? Those immigrants are filthy vermin and subhuman, ";
const MESSAGE = "they should all be driven out of our country. And";

describe("content_moderation categories through the engine, one-shot and chunk by chunk", () => {
  it("gives a chunk of a stream the verdict its whole text gets, with and without the harm listed", async () => {
    for (const [categories, result] of [
      [MODERATION_CATEGORIES, "UNSAFE"],
      [MODERATION_CATEGORIES.filter((c) => c !== "HATE"), "SAFE"],
      [["HATE"], "UNSAFE"],
    ] as const) {
      const compiled = await profile({ categories });
      const whole = await engine.check("output", CONTEXT + MESSAGE, compiled);
      const chunk = await engine.check("output", MESSAGE, compiled, undefined, { context: CONTEXT });
      for (const { body } of [whole, chunk])
        expect(body.checks.content_moderation, categories.join()).toMatchObject({
          result,
          category: result === "UNSAFE" ? "CATEGORIES: HATE" : null,
        });
    }
  });
});
