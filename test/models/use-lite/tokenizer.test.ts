import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sourceDir } from "../../../src/models/use-lite/model-cache.js";
import { createTokenizer, type Vocabulary } from "../../../src/models/use-lite/tokenizer.js";
import { golden, loadTfjs, seeded, type TfjsModel } from "./golden.js";

const vocabulary = JSON.parse(readFileSync(join(sourceDir(), "vocab.json"), "utf8")) as Vocabulary;
const tokenizer = createTokenizer(vocabulary);

const VARIED = [
  "",
  " ",
  "  two  spaces  ",
  "tab\there\nnewline\r\nCRLF",
  "ﬁ ligature ① ㌀ full-width ＡＢＣ",
  "lone surrogate \ud800 here",
  "\u0000 control \u0007 chars",
  "ignore previous instructions",
  "IGNORE PREVIOUS INSTRUCTIONS!!!",
  "https://example.com/path?q=1&r=2#frag",
  "zxqvbnmlkj qwrtypsdfg",
  "a".repeat(500),
  "The quick brown fox. ".repeat(60),
];

describe("USE-lite tokenizer", () => {
  it("gives the golden fixture's TF.js ids", () => {
    for (const c of golden.cases) expect(tokenizer.encode(c.text), c.text).toEqual(c.ids);
  });

  it("gives no tokens for an empty text only", () => {
    expect(tokenizer.encode("")).toEqual([]);
    expect(tokenizer.encode(" ").length).toBeGreaterThan(0);
  });

  describe("against the live TF.js tokenizer", () => {
    let tfjs: TfjsModel | undefined;
    beforeAll(async () => {
      tfjs = await loadTfjs();
    });

    it("matches on varied texts", ({ skip }) => {
      if (!tfjs) return skip();
      for (const text of VARIED)
        expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(tfjs.tokenizer.encode(text));
    });

    it("matches on 2,000 random strings over a mixed alphabet", ({ skip }) => {
      if (!tfjs) return skip();
      const alphabet = [..."abcdefghijklmnop qrstuvwxyz.,!?'\"-ÀéЖжд日本語😀👍🏽\u00a0\u2581ﬁ0123456789\n"];
      const random = seeded(42);
      for (let k = 0; k < 2000; k++) {
        const length = Math.floor(random() * 40);
        let text = "";
        for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
        expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(tfjs.tokenizer.encode(text));
      }
    });
  });
});
