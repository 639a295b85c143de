import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseProfile } from "../../../src/config/profile.js";
import { piiGuardrail } from "../../../src/guardrails/pii/index.js";
import { builtinGuardrails as registry } from "../../../src/guardrails/registry.js";
import type { Detector } from "../../../src/guardrails/types.js";
import { normalizeText } from "../../../src/text/normalize.js";
import { buildTinyModel, refuseNetwork } from "../../models/hf-classifier/tiny-model.js";

// The tiny tagger calls "alice" B-PER, "smith" I-PER and "paris" B-LOC. The bundled tagger finds
// the person and the place too, so the model's contribution is shown through a type the rules do
// not give them: its PER mapped to ORGANIZATION.
const TEXT = "please ask alice smith, who lives in paris, mail a@b.io";

describe("pii with an NER model of your own", () => {
  let dir: string;
  beforeAll(async () => {
    refuseNetwork();
    dir = await buildTinyModel({
      task: "token-classification",
      labels: ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"],
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await rm(dir, { recursive: true, force: true });
  });

  const detector = async (settings: Record<string, unknown>) =>
    (await piiGuardrail.create(piiGuardrail.settings.parse({ enabled: true, ...settings }), {
      baseDir: "/",
    })) as Detector;

  it("adds the model's entities, mapped by the profile, to what the rules find", async () => {
    const entities = ["ORGANIZATION", "EMAIL_ADDRESS"];
    const rulesOnly = await (await detector({ entities })).check({
      mode: "output",
      text: normalizeText(TEXT),
    });
    expect(rulesOnly.entities).toEqual(["EMAIL_ADDRESS"]);
    const own = await detector({ entities, model: { path: dir, labels: { PER: "ORGANIZATION" } } });
    const finding = await own.check({ mode: "output", text: normalizeText(TEXT) });
    expect(finding.entities).toEqual(["EMAIL_ADDRESS", "ORGANIZATION"]);
    const clean = normalizeText(TEXT).clean;
    expect(finding.spans?.map((s) => [s.label, clean.slice(s.start, s.end)])).toEqual([
      ["ORGANIZATION", "alice smith"],
      ["EMAIL_ADDRESS", "a@b.io"],
    ]);
  });

  it("resolves overlaps with the rules' findings: one span per place", async () => {
    const own = await detector({
      entities: ["PERSON", "LOCATION"],
      model: { path: dir, labels: { PER: "PERSON", LOC: "LOCATION" } },
    });
    const finding = await own.check({ mode: "output", text: normalizeText(TEXT) });
    const spans = finding.spans ?? [];
    for (let i = 1; i < spans.length; i++)
      expect((spans[i] as { start: number }).start).toBeGreaterThanOrEqual(
        (spans[i - 1] as { end: number }).end,
      );
    expect(finding.entities).toEqual(["PERSON", "LOCATION"]);
  });

  it("reports only the entity types the profile turns on, above min_score", async () => {
    const labels = { PER: "ORGANIZATION", LOC: "ADDRESS" };
    const orgs = await detector({ entities: ["ORGANIZATION"], model: { path: dir, labels } });
    expect((await orgs.check({ mode: "input", text: normalizeText(TEXT) })).entities).toEqual([
      "ORGANIZATION",
    ]);
    const strict = await detector({ entities: ["ORGANIZATION"], model: { path: dir, labels, min_score: 1 } });
    expect((await strict.check({ mode: "input", text: normalizeText(TEXT) })).flagged).toBe(false);
  });

  it("names an entity label the model does not tag, and the ones it does", async () => {
    await expect(detector({ model: { path: dir, labels: { PERSON: "PERSON" } } })).rejects.toThrow(
      /tags no entity "PERSON" \(it tags: PER, LOC\); fix the names under pii.model.labels/,
    );
  });

  it("refuses an unknown entity type at the field's path", () => {
    const parsed = parseProfile(
      { guardrails: { pii: { enabled: true, model: { path: "m", labels: { PER: "HUMAN" } } } } },
      { file: "own.yaml", stem: "own" },
      registry,
    );
    expect("problems" in parsed && parsed.problems.join("\n")).toContain("guardrails.pii.model.labels.PER");
  });
});
