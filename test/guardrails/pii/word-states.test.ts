import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLexicon } from "../../../src/guardrails/pii/lexicon.js";
import type { TaggerModel } from "../../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../../src/guardrails/pii/tagger/tagger.js";
import { TAG_COUNT, tagOf } from "../../../src/guardrails/pii/tagger/tags.js";
import { createTokens, tokenizeInto } from "../../../src/guardrails/pii/tagger/tokenize.js";
import { WORD_STATE_DIM, wordStates } from "../../../src/guardrails/pii/tagger/word-states.js";
import { USE_LITE_DIM } from "../../../src/models/use-lite/encoder.js";
import { sourceDir } from "../../../src/models/use-lite/model-cache.js";
import { createTokenizer, type Vocabulary } from "../../../src/models/use-lite/tokenizer.js";

const vocabulary = JSON.parse(readFileSync(join(sourceDir(), "vocab.json"), "utf8")) as Vocabulary;
const tokenizer = createTokenizer(vocabulary);

/** States where piece p is the unit vector along dimension p: a word's row shows which pieces it got. */
function oneHotStates(pieces: number): Float32Array {
  const states = new Float32Array(pieces * WORD_STATE_DIM);
  for (let p = 0; p < pieces; p++) states[p * WORD_STATE_DIM + p] = 1;
  return states;
}

const piecesOf = (row: Float32Array): number[] => [...row.keys()].filter((d) => (row[d] as number) !== 0);

/**
 * Each piece's UTF-16 range in the text, from the pieces' own strings (the separator is a space).
 * A run of unknown characters (id 0) has no string: its length in code points is taken from
 * `ends`, and walked in UTF-16 here.
 */
function pieceRanges(text: string, ends: Int32Array): [number, number][] {
  const view = ` ${text}`.replace(/\s/g, " ");
  let at = 0;
  return tokenizer.encode(text).map((id, p) => {
    let length = 0;
    if (id === 0)
      for (let k = (ends[p] as number) - (p ? (ends[p - 1] as number) : 0); k > 0; k--)
        length += (view.codePointAt(at + length) as number) > 0xffff ? 2 : 1;
    else {
      const piece = (vocabulary[id]?.[0] ?? "").replaceAll("\u2581", " ");
      expect(view.slice(at, at + piece.length)).toBe(piece);
      length = piece.length;
    }
    const range: [number, number] = [Math.max(0, at - 1), at - 1 + length];
    at += length;
    return range;
  });
}

describe("pii word states", () => {
  it("are the encoder's state size", () => {
    expect(WORD_STATE_DIM).toBe(USE_LITE_DIM);
  });

  it.each([
    "Send the file to Tamara Lundberg-Ortiz at Acme Corp. today",
    "O'Brien met Jean-Luc in São Paulo 🙂 at 9:30, then Zürich",
    "  spaced   out\twords, and punctuation!!",
  ])("gives each word the states of exactly the pieces that overlap it: %s", (text) => {
    const ends = tokenizer.tokenEnds(text) as Int32Array;
    const ranges = pieceRanges(text, ends);
    expect(ends.length).toBe(ranges.length);
    const tokens = tokenizeInto(text, createTokens());
    const rows = wordStates(text, tokens, ends, oneHotStates(ends.length));
    for (let w = 0; w < tokens.count; w++) {
      const [start, end] = [tokens.starts[w] as number, tokens.ends[w] as number];
      const expected = ranges.flatMap(([s, e], p) => (s < end && start < e ? [p] : []));
      const row = rows.subarray(w * WORD_STATE_DIM, (w + 1) * WORD_STATE_DIM);
      expect(piecesOf(row), tokens.texts[w]).toEqual(expected);
      // Unit length, whatever the number of pieces.
      expect(row.reduce((n, x) => n + x * x, 0)).toBeCloseTo(1, 6);
    }
  });

  it("leaves words past the encoded pieces at zero", () => {
    const text = "Alice and Bob went to Paris";
    const ends = tokenizer.tokenEnds(text) as Int32Array;
    const tokens = tokenizeInto(text, createTokens());
    const rows = wordStates(text, tokens, ends, oneHotStates(2));
    const last = rows.subarray((tokens.count - 1) * WORD_STATE_DIM, tokens.count * WORD_STATE_DIM);
    expect(piecesOf(last)).toEqual([]);
    expect(piecesOf(rows.subarray(0, WORD_STATE_DIM)).length).toBeGreaterThan(0);
  });
});

describe("pii tagger with word states", () => {
  // No sparse weights: only the dense weights can tag, and they say "B-PERSON" along dimension 0.
  const dim = 1 << 8;
  const dense = new Float32Array(WORD_STATE_DIM * TAG_COUNT);
  dense[tagOf(0, false)] = 100;
  const model: TaggerModel = { dim, weights: new Int16Array(dim * TAG_COUNT), dense };
  const text = "please call Morgan tomorrow";
  const statesOf = (t: string, tokens: { count: number }) => {
    const rows = new Float32Array(tokens.count * WORD_STATE_DIM);
    rows[2 * WORD_STATE_DIM] = t === text ? 1 : 0;
    return rows;
  };

  it("adds the states' scores to the table's", () => {
    const tagged = createTagger(model, loadLexicon(), statesOf)(text);
    expect(tagged.map((s) => text.slice(s.start, s.end))).toEqual(["Morgan"]);
  });

  it("ignores the dense weights without states, and states without dense weights", () => {
    expect(createTagger(model, loadLexicon())(text)).toEqual([]);
    const { dense: _, ...plain } = model;
    expect(createTagger(plain, loadLexicon(), statesOf)(text)).toEqual([]);
  });
});
