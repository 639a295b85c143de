import { describe, expect, it } from "vitest";
import { regexGuardrail } from "../../src/guardrails/regex/index.js";
import type { Finding } from "../../src/guardrails/types.js";
import { normalizeText } from "../../src/text/normalize.js";

// Classic catastrophic-backtracking patterns (OWASP, "Regular expression Denial of Service").
// A backtracking engine needs ~2^n steps on these inputs; RE2 is linear in the text.
const CASES = [
  { pattern: "(a+)+$", text: `${"a".repeat(50_000)}!`, flagged: false },
  { pattern: "(a|aa)+$", text: `${"a".repeat(50_000)}!`, flagged: false },
  // a? lets the group match empty, so this one does match (at the very end).
  { pattern: "(a|a?)+$", text: `${"a".repeat(50_000)}!`, flagged: true },
  { pattern: "(.*a){12}", text: `${"a".repeat(50_000)}!`, flagged: true },
  { pattern: "(.*a){12}$", text: `${"a".repeat(50_000)}!`, flagged: false },
  { pattern: "^(\\w+\\s?)*$", text: `${"aaaa ".repeat(10_000)}!`, flagged: false },
  { pattern: "^(([a-z])+.)+[A-Z]([a-z])+$", text: `${"a".repeat(50_000)}!`, flagged: false },
  { pattern: "(x+x+)+y", text: "x".repeat(50_000), flagged: false },
];

describe("regex guardrail: no ReDoS", () => {
  it.each(CASES)("$pattern on 50,000 characters", ({ pattern, text, flagged }) => {
    const settings = regexGuardrail.settings.parse({ enabled: true, patterns: [{ name: "evil", pattern }] });
    const detector = regexGuardrail.create(settings);
    const request = { mode: "input" as const, text: normalizeText(text) };
    const started = performance.now();
    const finding = detector.check(request) as Finding;
    const elapsed = performance.now() - started;
    expect(finding.flagged).toBe(flagged);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe("regex guardrail: finding spans", () => {
  // Each match is found in linear time, but these must read to the end of the text to settle
  // each one: 100 spans of 100,000 "a"s took 1.7 s and 1.5 s. The span search stops after 10 ms
  // (~30 ms in all, with the search under way when time runs out); the bound is 20× that.
  it("stops looking for spans after a time budget, still reporting every pattern that matched", () => {
    const settings = regexGuardrail.settings.parse({
      enabled: true,
      patterns: [
        { name: "word then digit", pattern: "(\\w+)(\\d)|(a)" },
        { name: "a to z", pattern: "(a)(.*)(z)|(a)" },
      ],
    });
    const detector = regexGuardrail.create(settings);
    const request = { mode: "input" as const, text: normalizeText("a".repeat(100_000)) };
    const started = performance.now();
    const finding = detector.check(request) as Finding;
    expect(performance.now() - started).toBeLessThan(700);
    expect(finding.matched).toEqual(["word then digit", "a to z"]);
    expect(finding.spans?.length).toBeGreaterThan(0);
  });
});
