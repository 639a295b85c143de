import { describe, expect, it } from "vitest";
import { loadInjectionClassifier } from "../../../src/guardrails/llm/classifier.js";
import { llmGuardrail } from "../../../src/guardrails/llm/index.js";
import type { CheckRequest } from "../../../src/guardrails/types.js";
import { normalizeText } from "../../../src/text/normalize.js";

const classifier = await loadInjectionClassifier();
const detector = async (threshold?: number) =>
  llmGuardrail.create(
    llmGuardrail.settings.parse({ enabled: true, ...(threshold === undefined ? {} : { threshold }) }),
    { baseDir: "." },
  );
/** An empty text as the engine hands it over: an encoder, but no sentence windows to embed. */
const empty = (withEncoder: boolean): CheckRequest => ({
  mode: "input",
  text: normalizeText(""),
  ...(withEncoder ? { embedding: async () => ({ windows: [], vectors: [] }) } : {}),
});

// `check ""` showed the llm threshold 0.590 (the n-gram model's, not the MLP's 0.454) with no word why.
describe("the llm says why the n-gram fallback's threshold applied", () => {
  it("an empty text: no windows to embed", async () => {
    const finding = await (await detector()).check(empty(true));
    expect(finding.threshold).toBe(classifier.header.threshold);
    expect(finding.threshold).not.toBe(classifier.threshold);
    expect(finding.note).toBe(
      "no sentence windows to embed (empty or blank text): the n-gram fallback scored it, against its own threshold",
    );
  });

  it("no encoder at all", async () => {
    const finding = await (await detector()).check(empty(false));
    expect(finding.note).toBe(
      "no sentence encoder: the n-gram fallback scored it, against its own threshold",
    );
  });

  it("a profile's threshold is the profile's: the note says only which model scored", async () => {
    const finding = await (await detector(0.7)).check(empty(true));
    expect(finding).toMatchObject({ threshold: 0.7, note: expect.stringMatching(/fallback scored it$/) });
  });
});
