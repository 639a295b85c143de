import { describe, expect, it } from "vitest";
import { createPiiDetect } from "../../../src/guardrails/pii/detect.js";
import { loadLexicon } from "../../../src/guardrails/pii/lexicon.js";
import { loadTaggerModel } from "../../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../../src/guardrails/pii/tagger/tagger.js";
import { TAG_COUNT } from "../../../src/guardrails/pii/tagger/tags.js";
import { createTokens, tokenizeInto } from "../../../src/guardrails/pii/tagger/tokenize.js";

const lexicon = loadLexicon();
const tag = createTagger(loadTaggerModel(), lexicon);
const labelled = (text: string) => tag(text).map((s) => `${s.label}:${text.slice(s.start, s.end)}`);

describe("pii tagger", () => {
  it("loads the shipped weights once per process", () => {
    const model = loadTaggerModel();
    expect(model.weights.length).toBe(model.dim * TAG_COUNT);
    expect(model.dim & (model.dim - 1)).toBe(0);
    expect(loadTaggerModel()).toBe(model);
  });

  it.each([
    ["Please forward the invoice to Tamara Lundberg today.", "PERSON:Tamara Lundberg"],
    ["My name is Jonathan Whitaker and I need help.", "PERSON:Jonathan Whitaker"],
    ["She grew up in Argentina before moving.", "LOCATION:Argentina"],
  ])("tags %s", (text, expected) => {
    expect(labelled(text)).toContain(expected);
  });

  it("tokens map back to the exact characters of the message", () => {
    const text = "  O'Brien met Jean-Luc at 221B Baker St., London—ok?";
    const tokens = tokenizeInto(text, createTokens());
    for (let i = 0; i < tokens.count; i++) {
      expect(text.slice(tokens.starts[i], tokens.ends[i])).toBe(tokens.texts[i]);
    }
    expect(tokens.texts.slice(0, 3)).toEqual(["O'Brien", "met", "Jean-Luc"]);
  });

  it("spans lie on token boundaries of the input", () => {
    const text = "Ask Maria Gonzalez from Madrid about 55 Halsey Road.";
    for (const s of tag(text)) {
      expect(text.slice(s.start, s.end)).toBe(text.slice(s.start, s.end).trim());
      expect(s.end).toBeLessThanOrEqual(text.length);
    }
  });

  it("is deterministic and independent of earlier calls (buffers are reused)", () => {
    const text = "Dear Helena Shaw, your parcel from Oslo has shipped.";
    const first = tag(text);
    tag("A much longer message ".repeat(40));
    expect(tag(text)).toEqual(first);
    expect(createTagger(loadTaggerModel(), lexicon)(text)).toEqual(first);
  });

  it("drops courtesy titles from person spans", () => {
    const detect = createPiiDetect(new Set(["PERSON"]));
    const text = "Mr. Ford is a 50 year old man";
    expect(detect(text).map((s) => text.slice(s.start, s.end))).toEqual(["Ford"]);
  });
});
