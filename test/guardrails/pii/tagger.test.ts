import { describe, expect, it } from "vitest";
import { createPiiDetect } from "../../../src/guardrails/pii/detect.js";
import { loadLexicon } from "../../../src/guardrails/pii/lexicon.js";
import { loadTaggerModel } from "../../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../../src/guardrails/pii/tagger/tagger.js";
import { TAG_COUNT } from "../../../src/guardrails/pii/tagger/tags.js";
import { createTokens, TOKEN, tokenizeInto } from "../../../src/guardrails/pii/tagger/tokenize.js";

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

  it("tokenizes exactly as the TOKEN regex does", () => {
    // Letters, marks, joiners, digits of other scripts, spaces, astral and lone surrogates.
    const alphabet = [
      ..."aZé\u0301\u20dd'’-., \u00a0\n1٣²中İǅ_\u2028\ufeff\u200bßﬁⅫⓐO9",
      "𝐀",
      "😀",
      "\ud800",
      "\udc00",
    ];
    let seed = 42;
    const random = (k: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % k;
    };
    const tokens = createTokens();
    for (let t = 0; t < 20_000; t++) {
      let text = "";
      for (let i = random(20); i > 0; i--) text += alphabet[random(alphabet.length)];
      tokenizeInto(text, tokens);
      const got = Array.from({ length: tokens.count }, (_, i) => [tokens.starts[i], tokens.texts[i]]);
      expect(got, JSON.stringify(text)).toEqual([...text.matchAll(TOKEN)].map((m) => [m.index, m[0]]));
    }
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
