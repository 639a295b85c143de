import { describe, expect, it } from "vitest";
import { buildAhoCorasick, createAhoCorasick } from "../../src/guardrails/keyword/aho-corasick.js";
import { BUILD_AT_ONCE, keywordGuardrail } from "../../src/guardrails/keyword/index.js";
import { buildKeywordMatcher } from "../../src/guardrails/keyword/matcher.js";
import { runSteps, runStepsInSlices } from "../../src/guardrails/keyword/steps.js";
import type { Finding } from "../../src/guardrails/types.js";
import { normalizeText } from "../../src/text/normalize.js";

function seeded(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * n);
  };
}

function matches(patterns: readonly string[], text: string): string[] {
  const found: string[] = [];
  createAhoCorasick(patterns).search(text, (id, start, end) => found.push(`${id}@${start}-${end}`));
  return found;
}

/** Every occurrence by brute force, in the automaton's order: by end, longest first, then by id. */
function naive(patterns: readonly string[], text: string): string[] {
  const found: [number, number, number][] = [];
  patterns.forEach((pattern, id) => {
    if (!pattern) return;
    for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
      found.push([id, at, at + pattern.length]);
    }
  });
  found.sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  return found.map(([id, start, end]) => `${id}@${start}-${end}`);
}

/** Distinct non-empty prefixes, plus the root: the size of the smallest trie. */
function prefixCount(patterns: readonly string[]): number {
  const prefixes = new Set<string>();
  for (const pattern of patterns) for (let i = 1; i <= pattern.length; i++) prefixes.add(pattern.slice(0, i));
  return prefixes.size + 1;
}

describe("the compact automaton", () => {
  // Alphabets that take each path of the build's sort: a few letters (counting sort), code
  // units far apart (native sort), surrogate pairs, and a pattern ending where others go on.
  const alphabets = ["ab", "abc ", "a\u4e00\uffff", "x😀é\u0301", "\u0000a\uffff"];

  it.each(alphabets)("reports what a brute-force search finds, in the same order (%j)", (alphabet) => {
    const random = seeded(alphabet.length * 31);
    const units = [...alphabet].join("");
    const word = (length: number) => Array.from({ length }, () => units[random(units.length)]).join("");
    for (let round = 0; round < 150; round++) {
      const patterns = Array.from({ length: 1 + random(40) }, () => word(random(6)));
      patterns.push(patterns[random(patterns.length)] as string); // a duplicate
      const text = word(random(60));
      expect(matches(patterns, text)).toEqual(naive(patterns, text));
    }
  });

  it("has one node per distinct prefix, whatever the order or repetition of the patterns", () => {
    const random = seeded(11);
    const word = () => Array.from({ length: 1 + random(12) }, () => "abcdefgh"[random(8)]).join("");
    const patterns = Array.from({ length: 3_000 }, word);
    const automaton = createAhoCorasick([...patterns, ...patterns.slice(0, 500), ""]);
    expect(automaton.nodeCount).toBe(prefixCount(patterns));
    expect(createAhoCorasick([]).nodeCount).toBe(1);
  });

  it("builds in slices: each yield comes after a bounded amount of work", () => {
    const patterns = Array.from({ length: 20_000 }, (_, i) => `keyword number ${i}`);
    let yields = 0;
    const steps = buildAhoCorasick(patterns);
    for (let step = steps.next(); !step.done; step = steps.next()) yields++;
    const chars = patterns.reduce((sum, p) => sum + p.length, 0);
    // At least one pause per 16,384 units of work (characters read, nodes linked).
    expect(yields).toBeGreaterThan(chars / 16_384);
  });
});

describe("building a keyword matcher in slices", () => {
  const keywords = Array.from({ length: 3_000 }, (_, i) => `Forbidden Phrase ${i}`);
  const text = normalizeText("say FORBIDDEN phrase 2999 and forbidden phrase 12, not phrase 4");

  it("lets other callbacks run between slices and builds the same matcher", async () => {
    let turns = 0;
    let building = true;
    const tick = () => {
      turns++;
      if (building) setImmediate(tick);
    };
    setImmediate(tick);
    const sliced = await runStepsInSlices(buildKeywordMatcher(keywords, "word"), 0);
    building = false;
    expect(turns).toBeGreaterThan(1);
    expect(sliced(text)).toEqual(runSteps(buildKeywordMatcher(keywords, "word"))(text));
  });

  it("answers checks made while a long list is still building, once it is built", async () => {
    const long = Array.from({ length: BUILD_AT_ONCE / 20 + 1 }, (_, i) => `forbidden phrase ${i}`);
    expect(long.join("").length).toBeGreaterThan(BUILD_AT_ONCE);
    const detector = keywordGuardrail.create(
      keywordGuardrail.settings.parse({ enabled: true, keywords: long }),
    );
    const last = long.length - 1;
    const request = { mode: "input" as const, text: normalizeText(`say Forbidden Phrase ${last} now`) };
    const early = detector.check(request);
    expect(early).toBeInstanceOf(Promise);
    expect((await early).matched).toEqual([`forbidden phrase ${last}`]);
    expect((detector.check(request) as Finding).matched).toEqual([`forbidden phrase ${last}`]);
  });
});
