import { describe, expect, it } from "vitest";
import { createAhoCorasick } from "../../src/guardrails/keyword/aho-corasick.js";

function findAll(patterns: string[], text: string): [string, number, number][] {
  const found: [string, number, number][] = [];
  createAhoCorasick(patterns).search(text, (id, start, end) =>
    found.push([patterns[id] as string, start, end]),
  );
  return found.sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[0].localeCompare(b[0]));
}

/** The obvious quadratic reference the automaton must agree with. */
function naive(patterns: string[], text: string): [string, number, number][] {
  const found: [string, number, number][] = [];
  for (const pattern of patterns) {
    if (!pattern) continue;
    for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
      found.push([pattern, at, at + pattern.length]);
    }
  }
  return found.sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[0].localeCompare(b[0]));
}

describe("createAhoCorasick", () => {
  it.each([
    { patterns: ["he", "she", "his", "hers"], text: "ushers" },
    { patterns: ["a", "aa", "aaa"], text: "aaaa" },
    { patterns: ["abcd", "bc", "c"], text: "xabcdx abc" },
    { patterns: ["ignore previous", "previous instructions"], text: "ignore previous instructions" },
    { patterns: ["😀x", "x"], text: "a😀x😀" },
    { patterns: ["игнор", "гнор"], text: "проигнорируй" },
    { patterns: ["abc"], text: "" },
    { patterns: [], text: "anything" },
  ])("finds every occurrence of $patterns in $text", ({ patterns, text }) => {
    expect(findAll(patterns, text)).toEqual(naive(patterns, text));
  });

  it("reports the classic example's matches", () => {
    expect(findAll(["he", "she", "his", "hers"], "ushers")).toEqual([
      ["she", 1, 4],
      ["he", 2, 4],
      ["hers", 2, 6],
    ]);
  });

  it("never matches an empty pattern, and reports duplicates under each id", () => {
    const ids: number[] = [];
    createAhoCorasick(["", "ab", "ab"]).search("ab", (id) => ids.push(id));
    expect(ids).toEqual([1, 2]);
  });

  it("agrees with the naive search on random inputs", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (length: number) => Array.from({ length }, () => "abc"[random(3)]).join("");
    for (let round = 0; round < 200; round++) {
      const patterns = Array.from({ length: 1 + random(8) }, () => word(1 + random(4)));
      const text = word(random(40));
      expect(findAll(patterns, text)).toEqual(naive(patterns, text));
    }
  });

  it("handles thousands of patterns in one pass", () => {
    const patterns = Array.from({ length: 5000 }, (_, i) => `word${i}x`);
    expect(findAll(patterns, "say word4999x and word12x")).toEqual([
      ["word4999x", 4, 13],
      ["word12x", 18, 25],
    ]);
  });
});
