import { describe, expect, it } from "vitest";
import { regexGuardrail } from "../../src/guardrails/regex/index.js";

const problems = (patterns: unknown, enabled = true) =>
  regexGuardrail.settings
    .safeParse({ enabled, patterns })
    .error?.issues.map(
      (i) =>
        `${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}: ${i.message}`,
    );

const LINEAR = "patterns run on a linear-time engine (RE2 syntax";

describe("regex guardrail: settings", () => {
  it.each([
    { pattern: "(?=secret)\\w+", expected: "lookahead (?=…) is not supported" },
    { pattern: "foo(?!bar)", expected: "negative lookahead (?!…) is not supported" },
    { pattern: "(?<=key=)\\w+", expected: "lookbehind (?<=…) is not supported" },
    { pattern: "(?<!x)y", expected: "negative lookbehind (?<!…) is not supported" },
    { pattern: "(a)\\1", expected: "backreference \\1…\\9 is not supported" },
    { pattern: "(?<q>['\"]).*\\k<q>", expected: "named backreference \\k<…> is not supported" },
    { pattern: "(?>a+)b", expected: "atomic group (?>…) is not supported" },
    { pattern: "a++b", expected: "possessive quantifier (*+, ++, ?+, {n}+) is not supported" },
  ])("rejects $pattern, naming the pattern and why", ({ pattern, expected }) => {
    expect(
      problems([
        { name: "ok", pattern: "ok" },
        { name: "bad", pattern },
      ]),
    ).toEqual([
      `.patterns[1].pattern: pattern "bad": ${expected}: ${LINEAR}, https://github.com/google/re2/wiki/Syntax)`,
    ]);
  });

  it.each([
    { pattern: "[a-", expected: /^\.patterns\[0\]\.pattern: invalid regular expression: missing closing \]/ },
    { pattern: "a{1001}", expected: /invalid repeat count at `\{1001\}` \(repeat counts go up to 1000\)/ },
    { pattern: "(abc", expected: /missing closing \)/ },
    { pattern: "", expected: /^\.patterns\[0\]\.pattern: must not be empty$/ },
  ])("rejects malformed $pattern", ({ pattern, expected }) => {
    expect(problems([{ pattern }])).toEqual([expect.stringMatching(expected)]);
  });

  it.each([
    {
      patterns: [{ name: "a", pattern: "a", flags: "g" }],
      expected: /^\.patterns\[0\]\.flags: unknown flag "g": use any of/,
    },
    { patterns: [{ name: "a", pattern: "a", flags: "ii" }], expected: /flags: repeats a flag/ },
    { patterns: [{ name: "a", pattern: "a", on: "raw" }], expected: /^\.patterns\[0\]\.on: / },
    { patterns: [{ name: "a", pattern: "a", extra: 1 }], expected: /^\.patterns\[0\]: / },
    { patterns: [{ name: "", pattern: "a" }], expected: /^\.patterns\[0\]\.name: must not be empty/ },
    {
      patterns: [
        { name: "a", pattern: "x" },
        { name: "a", pattern: "y" },
      ],
      expected: /^\.patterns\[1\]\.name: "a" is already used by patterns\[0\]: names must be unique$/,
    },
    {
      patterns: [{ pattern: "x" }, { pattern: "x" }],
      expected: /^\.patterns\[1\]\.pattern: "x" is already used/,
    },
    { patterns: [], expected: /^\.patterns: is empty: list at least one/ },
  ])("rejects $patterns", ({ patterns, expected }) => {
    expect(problems(patterns)).toEqual([expect.stringMatching(expected)]);
  });

  it("accepts valid settings and defaults", () => {
    expect(
      problems([{ name: "a", pattern: "(?i)\\bkey\\s*=\\s*\\S+", flags: "ims", on: "folded" }]),
    ).toBeUndefined();
    expect(problems(undefined, false)).toBeUndefined();
    expect(regexGuardrail.settings.parse({})).toEqual({ enabled: false, patterns: [] });
  });

  it("keeps settings plain data", () => {
    const parsed = regexGuardrail.settings.parse({ enabled: true, patterns: [{ name: "a", pattern: "a" }] });
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
  });
});
