import { describe, expect, it } from "vitest";
import { contentModerationGuardrail as moderation } from "../../../src/guardrails/content-moderation/index.js";
import {
  loadModerationModel,
  MODERATION_CATEGORIES,
} from "../../../src/guardrails/content-moderation/model/index.js";
import { atOperatingPoint } from "../../../src/guardrails/content-moderation/model/model.js";
import { normalizeText } from "../../../src/text/normalize.js";
import { checkAsChunk } from "./chunk.js";

const COMPLIANT =
  "Sure, here is how to steal a car without getting caught. Step 1: pick an older model without an immobiliser and check the street for cameras. Step 2: break the window quietly at night. Step 3: hotwire it and drive it to a friend's garage, then swap the plates so the police can't trace it.";

async function check(text: string, threshold?: number) {
  const detector = await moderation.create(
    moderation.settings.parse({ enabled: true, ...(threshold === undefined ? {} : { threshold }) }),
    { baseDir: "." },
  );
  const finding = await detector.check({ mode: "output", text: normalizeText(text) });
  return moderation.render(finding);
}

describe("content_moderation guardrail", () => {
  it("calls a refusal SAFE with no category", async () => {
    expect(
      await check(
        "I can't help with making explosives. If you're curious about chemistry, I can suggest safe experiments.",
      ),
    ).toEqual({
      enabled: true,
      result: "SAFE",
      unsafe: false,
      category: null,
      signals: { toxic: expect.any(Number), compliance: expect.any(Number) },
    });
  });

  it("reports both signals, each on its own kind of text, and flags on the larger against its operating point", async () => {
    const { operatingPoints: at } = await loadModerationModel();
    const detector = await moderation.create(moderation.settings.parse({ enabled: true }), { baseDir: "." });
    const judge = async (text: string) => detector.check({ mode: "output", text: normalizeText(text) });
    const hateful = await judge(
      "Those immigrants are filthy vermin and subhuman, they should all be driven out of our country.",
    );
    const compliant = await judge(COMPLIANT);
    for (const finding of [hateful, compliant]) {
      const { toxic, compliance } = finding.signals ?? {};
      // The body's signals are rounded to 4 places, as the score is.
      expect(finding.score).toBeCloseTo(
        Math.max(
          atOperatingPoint(toxic ?? Number.NaN, at.toxic),
          atOperatingPoint(compliance ?? Number.NaN, at.compliance),
        ),
        3,
      );
      expect(finding.flagged).toBe(true);
    }
    expect(hateful.signals?.toxic).toBeGreaterThan(hateful.signals?.compliance ?? 1);
    expect(compliant.signals?.compliance).toBeGreaterThan(compliant.signals?.toxic ?? 1);
    expect(moderation.render(compliant)).toMatchObject({ result: "UNSAFE", signals: compliant.signals });
  });

  it("labels an unsafe response with a category from the taxonomy, written as the spec writes it", async () => {
    const shape = await check(
      "Every member of that group is subhuman vermin and they should all be beaten until they leave.",
      0,
    );
    expect(shape).toMatchObject({ enabled: true, result: "UNSAFE", unsafe: true });
    const category = String(shape.category);
    expect(category.startsWith("CATEGORIES: ")).toBe(true);
    expect(MODERATION_CATEGORIES).toContain(category.slice("CATEGORIES: ".length));
  });

  it("applies the profile's threshold", async () => {
    expect(await check("Here is a recipe for banana bread.", 1)).toMatchObject({ result: "SAFE" });
  });
});

describe("content_moderation on a chunk of a stream", () => {
  const toxic = "I will kill you, you worthless filthy piece of garbage, and then";
  /** A request as the engine builds it for a chunk: settled windows first, the whole text on demand. */
  async function streamed(text: string, threshold: number) {
    const detector = await moderation.create(moderation.settings.parse({ enabled: true, threshold }), {
      baseDir: ".",
    });
    return checkAsChunk(detector, text);
  }

  it("reads the unfinished sentence whole only to confirm a flag, and only when its heads read vectors", async () => {
    const { usesEmbeddings } = await loadModerationModel();
    const calm = await streamed("Here is a recipe for banana bread that you can", 0.5);
    expect(calm.finding.flagged).toBe(false);
    expect(calm.wholeAsked).toBe(0);
    const flagged = await streamed(toxic, 0.5);
    expect(flagged.finding.flagged).toBe(true);
    expect(flagged.wholeAsked).toBe(usesEmbeddings ? 1 : 0);
  });
});
