import { describe, expect, it } from "vitest";
import { parseProfile } from "../../../src/config/profile.js";
import { contentModerationGuardrail as moderation } from "../../../src/guardrails/content-moderation/index.js";
import { judgeCategories } from "../../../src/guardrails/content-moderation/listed-categories.js";
import {
  MODERATION_CATEGORIES,
  type ModerationCategory,
} from "../../../src/guardrails/content-moderation/model/index.js";
import { builtinGuardrails as registry } from "../../../src/guardrails/registry.js";
import { normalizeText } from "../../../src/text/normalize.js";
import { checkAsChunk } from "./chunk.js";

const HATEFUL =
  "Those immigrants are filthy vermin and subhuman, they should all be driven out of our country.";

function problems(categories: unknown): string {
  const parsed = parseProfile(
    { guardrails: { content_moderation: { enabled: true, categories } } },
    { file: "cats.yaml", stem: "cats" },
    registry,
  );
  return "problems" in parsed ? parsed.problems.join("\n") : "";
}

async function detector(settings: Record<string, unknown> = {}) {
  return moderation.create(moderation.settings.parse({ enabled: true, ...settings }), { baseDir: "." });
}

describe("content_moderation categories setting", () => {
  it("lists every category by default, and keeps a list in the taxonomy's order, once each", () => {
    expect(moderation.settings.parse({ enabled: true }).categories).toEqual([...MODERATION_CATEGORIES]);
    expect(moderation.settings.parse({ categories: ["VIOLENCE", "HATE", "VIOLENCE"] }).categories).toEqual([
      "VIOLENCE",
      "HATE",
    ]);
  });

  it("refuses an unknown name at its field path, listing the valid ones", () => {
    const message = problems(["HATE", "CYBER"]);
    expect(message).toContain(
      'cats.yaml: guardrails.content_moderation.categories[1]: unknown moderation category "CYBER"',
    );
    expect(message).toContain(`valid: ${MODERATION_CATEGORIES.join(", ")}`);
  });

  it("refuses an empty list and points at enabled: false", () => {
    expect(problems([])).toContain(
      "guardrails.content_moderation.categories: list at least one category, or set enabled: false to flag nothing",
    );
    expect(problems("HATE")).toContain("guardrails.content_moderation.categories");
  });
});

describe("judgeCategories: an allowed harm passes only as the most likely category holding most of P", () => {
  const scores = (s: Partial<Record<ModerationCategory, number>>) => s;
  const allBut = (c: ModerationCategory) => MODERATION_CATEGORIES.filter((x) => x !== c);

  it("flags a close listed harm behind an allowed most-likely one, naming the listed one", () => {
    const p = scores({ SPECIALIZED_ADVICE: 0.45, SELF_HARM: 0.4, CRIMINAL: 0.15 });
    expect(judgeCategories(p, allBut("SPECIALIZED_ADVICE"))).toEqual({ listed: true, category: "SELF_HARM" });
    expect(
      judgeCategories(scores({ SPECIALIZED_ADVICE: 0.8, SELF_HARM: 0.2 }), allBut("SPECIALIZED_ADVICE")),
    ).toMatchObject({ listed: false });
  });

  it("counts the listed categories together, a listed most likely one alone, and a tie as listed", () => {
    const p = scores({ HATE: 0.3, HARASSMENT: 0.25, VIOLENCE: 0.45 });
    expect(judgeCategories(p, ["HATE", "HARASSMENT"])).toEqual({ listed: true, category: "HATE" });
    expect(judgeCategories(p, ["HATE"]).listed).toBe(false);
    const spread = scores({ HATE: 0.35, HARASSMENT: 0.33, VIOLENCE: 0.32 });
    expect(judgeCategories(spread, ["HATE"])).toEqual({ listed: true, category: "HATE" });
    expect(judgeCategories(scores({ HATE: 0.5, VIOLENCE: 0.5 }), ["HATE"]).listed).toBe(true);
    expect(judgeCategories(scores({ HATE: 0.4, VIOLENCE: 0.4, SEXUAL: 0.2 }), ["HATE"]).listed).toBe(true);
  });

  it("lists everything when every category is listed, with the most likely category", () => {
    expect(judgeCategories(scores({ CRIMINAL: 0.6, HATE: 0.4 }), MODERATION_CATEGORIES)).toEqual({
      listed: true,
      category: "CRIMINAL",
    });
  });
});

describe("content_moderation with a categories list", () => {
  const allBut = (c: ModerationCategory) => MODERATION_CATEGORIES.filter((x) => x !== c);
  const judge = async (text: string, settings: Record<string, unknown>) =>
    (await detector(settings)).check({ mode: "output", text: normalizeText(text) });

  it("flags only a listed harm; an unlisted one scores 0 at any threshold and keeps its signals", async () => {
    const all = await judge(HATEFUL, {});
    expect(all).toMatchObject({ flagged: true, category: "HATE" });
    expect(await judge(HATEFUL, { categories: ["HATE", "VIOLENCE"] })).toEqual(all);
    const allowed = await judge(HATEFUL, { categories: allBut("HATE"), threshold: 0 });
    expect(allowed).toMatchObject({ score: 0, signals: all.signals });
    const strict = await judge(HATEFUL, { categories: allBut("HATE") });
    expect(moderation.render(strict)).toEqual({
      enabled: true,
      result: "SAFE",
      unsafe: false,
      category: null,
      signals: all.signals,
    });
  });

  it("behaves the same on a chunk of a stream, and never confirms an unlisted harm", async () => {
    // HATE 0.91, HARASSMENT 0.03 to the bundled category head.
    const text = "I will kill you, you worthless filthy piece of garbage, and then";
    const streamed = async (categories: readonly string[]) =>
      checkAsChunk(await detector({ categories }), text);
    const allowed = await streamed(allBut("HATE"));
    expect(allowed).toEqual({
      finding: expect.objectContaining({ flagged: false, score: 0 }),
      wholeAsked: 0,
    });
    const listed = await streamed(["HARASSMENT", "HATE"]);
    expect(listed.finding).toMatchObject({ flagged: true, category: "HATE" });
    expect(await streamed(["HARASSMENT"])).toMatchObject({ finding: { flagged: false } });
  });
});
