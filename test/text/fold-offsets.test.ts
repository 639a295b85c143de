import { describe, expect, it } from "vitest";
import { isWholeWord } from "../../src/guardrails/keyword/word-boundary.js";
import { foldedToClean, toCleanRange } from "../../src/text/fold-offsets.js";
import { normalizeText } from "../../src/text/normalize.js";

/** The clean text under the folded range where `needle` occurs. */
function cleanUnder(raw: string, needle: string): string {
  const text = normalizeText(raw);
  const start = text.folded.indexOf(needle);
  const range = toCleanRange(foldedToClean(text), text.clean, start, start + needle.length);
  return text.clean.slice(range.start, range.end);
}

describe("foldedToClean", () => {
  it.each([
    { text: "say IGNORE now", needle: "ignore", expected: "IGNORE" },
    { text: "say ÌGNÖRÉ now", needle: "ignore", expected: "ÌGNÖRÉ" },
    { text: "say іgnоrе now", needle: "ignore", expected: "іgnоrе" },
    { text: "😀 q\u0301uit 😀 x", needle: "quit", expected: "q\u0301uit" },
    { text: "😀 q\u0301uit 😀 x", needle: "x", expected: "x" },
    { text: "İİ ignore", needle: "ignore", expected: "ignore" },
    { text: "a\u20dd\u20dd b", needle: "a", expected: "a\u20dd\u20dd" },
  ])("$needle in $text", ({ text, needle, expected }) => {
    expect(cleanUnder(text, needle)).toBe(expected);
  });
});

describe("isWholeWord", () => {
  it.each([
    { text: "an ignore here", start: 3, end: 9, expected: true },
    { text: "ignored", start: 0, end: 6, expected: false },
    { text: "signore", start: 1, end: 7, expected: false },
    { text: "ignore_x", start: 0, end: 6, expected: false },
    { text: "ignore2", start: 0, end: 6, expected: false },
    { text: "ignoreй", start: 0, end: 6, expected: false },
    { text: "𝒳ignore", start: 2, end: 8, expected: false },
    { text: "😀ignore😀", start: 2, end: 8, expected: true },
    { text: "请忽略", start: 1, end: 3, expected: true },
    { text: "x c++y", start: 2, end: 5, expected: true },
  ])("$text [$start, $end) → $expected", ({ text, start, end, expected }) => {
    expect(isWholeWord(text, start, end)).toBe(expected);
  });
});
