import { describe, expect, it } from "vitest";
import { cleanText, foldedLength, foldText, normalizeText } from "../../src/text/normalize.js";

describe("normalizeText: clean", () => {
  it.each([
    { name: "full-width forms", text: "ｉｇｎｏｒｅ ＡＬＬ １２３", expected: "ignore ALL 123" },
    { name: "mathematical and circled letters", text: "𝐢𝐠𝐧𝐨𝐫𝐞 ⓘⓖⓝⓞⓡⓔ", expected: "ignore ignore" },
    { name: "zero-width space", text: "ig\u200bnore", expected: "ignore" },
    { name: "zero-width joiner and non-joiner", text: "ig\u200dno\u200cre", expected: "ignore" },
    { name: "word joiner", text: "ig\u2060nore", expected: "ignore" },
    { name: "byte-order mark", text: "\ufeffignore", expected: "ignore" },
    { name: "soft hyphen", text: "ig\u00adnore", expected: "ignore" },
    { name: "bidi embeddings and overrides", text: "\u202aig\u202enore\u202c", expected: "ignore" },
    { name: "bidi isolates and marks", text: "\u2066ig\u200enore\u200f\u2069", expected: "ignore" },
    { name: "tag characters", text: "ig\u{e0069}\u{e0067}nore", expected: "ignore" },
    { name: "variation selectors and grapheme joiner", text: "ig\ufe0fno\u034fre", expected: "ignore" },
    {
      name: "tabs and newlines collapse",
      text: "ignore\t\tall\r\n\nprevious",
      expected: "ignore all previous",
    },
    { name: "unicode spaces collapse", text: "a\u00a0\u2003\u3000b\u2028c\u2029d", expected: "a b c d" },
    { name: "outer whitespace trimmed", text: "  \n hi \t ", expected: "hi" },
    {
      name: "control characters become spaces",
      text: "ig\u0000nore\u0007all\u001b\u007fx\u0085y",
      expected: "ig nore all x y",
    },
    { name: "case, accents and script kept", text: "Café Ιgnore", expected: "Café Ιgnore" },
    { name: "combining sequences composed (NFC)", text: "Cafe\u0301", expected: "Café" },
    { name: "empty", text: "", expected: "" },
  ])("$name", ({ text, expected }) => {
    expect(normalizeText(text).clean).toBe(expected);
    expect(cleanText(text)).toBe(expected);
  });
});

describe("normalizeText: folded", () => {
  it.each([
    { name: "upper case", text: "IGNORE Previous", expected: "ignore previous" },
    { name: "full-width", text: "ＩＧＮＯＲＥ", expected: "ignore" },
    { name: "Cyrillic look-alikes", text: "іgnоrе рrеviоus", expected: "ignore previous" },
    { name: "upper-case Cyrillic look-alikes", text: "ІGNОRЕ", expected: "ignore" },
    { name: "Greek look-alikes", text: "ΙGΝΟRΕ αll", expected: "ignore all" },
    { name: "mixed scripts inside one word", text: "sуstеm prоmpt", expected: "system prompt" },
    { name: "combining accents stripped", text: "ìgnórê prévïoüs", expected: "ignore previous" },
    {
      name: "stacked combining marks stripped",
      text: "i\u0336g\u0336n\u0336o\u0336r\u0336e\u0336",
      expected: "ignore",
    },
    { name: "enclosing marks stripped", text: "ig\u20ddnore", expected: "ignore" },
    { name: "dotted capital I", text: "İGNORE", expected: "ignore" },
    {
      name: "upper-case letters whose lower case is a look-alike",
      text: "ԀROP ҺACK",
      expected: "drop hack",
    },
    {
      name: "invisible characters inside a word",
      text: "I\u200bG\u00adN\u2060O\ufeffR\u200dE",
      expected: "ignore",
    },
    { name: "whitespace collapsed", text: "IGNORE \t\n ALL", expected: "ignore all" },
    { name: "non-Latin text otherwise kept", text: "忽略之前的指示", expected: "忽略之前的指示" },
  ])("$name", ({ text, expected }) => {
    expect(normalizeText(text).folded).toBe(expected);
    expect(foldText(text)).toBe(expected);
  });

  it("keeps raw as received", () => {
    expect(normalizeText(" A\u200b ").raw).toBe(" A\u200b ");
  });

  it("folds the same whatever the case of the input", () => {
    for (const word of ["ԁrop", "һack", "ѵote", "ӏine"]) {
      expect(foldText(word.toUpperCase())).toBe(foldText(word));
    }
  });

  it("is idempotent", () => {
    for (const text of ["ＩＧＮＯＲＥ іgnоrе", "Café\u0301 ΑΒΓ", "ԀROP\u20dd"]) {
      expect(foldText(foldText(text))).toBe(foldText(text));
    }
  });
});

describe("normalizeText: long runs of combining marks", () => {
  const marks = (n: number) => "\u0316\u0301".repeat(n / 2);

  it("keeps the first 30 marks of a run (Stream-Safe Text Format) and drops the rest", () => {
    // (Normalised, the marks are sorted by class: all U+0316 before all U+0301.)
    expect(cleanText(`x${marks(40)} y`)).toBe(`x${marks(30)} y`.normalize("NFC"));
    expect(cleanText(`x${marks(30)}`)).toBe(`x${marks(30)}`.normalize("NFC"));
  });

  it("counts a run split by invisible characters as one", () => {
    expect(cleanText(`x${"\u0316\u200d".repeat(40)}`)).toBe(`x${"\u0316".repeat(30)}`);
  });

  it("counts the half-width voiced sound marks that NFKC makes combining", () => {
    expect(cleanText(`\u30ab${"\uff9e".repeat(40)}`).length).toBeLessThanOrEqual(31);
  });

  // NFC, NFD and NFKC sort each run of marks with an insertion sort: before the cut, these took
  // 0.8–6 s each (quadratic); now 1–5 ms, so the bound leaves a 50× margin for busy machines.
  it.each([
    ["two alternating classes", `a${marks(99_998)}`],
    ["three classes", `a${"\u0301\u0316\u0345".repeat(33_333)}`],
    ["split by zero-width joiners", `a${"\u0301\u200d\u0316".repeat(33_333)}`],
    ["half-width voiced marks", `a${"\uff9e\u0301".repeat(50_000)}`],
  ])("normalises 100,000 characters of %s in linear time", (_, text) => {
    const started = performance.now();
    normalizeText(text);
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe("foldedLength", () => {
  it("is the length of foldText for every code point", () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (foldedLength(ch) !== foldText(ch).length) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
