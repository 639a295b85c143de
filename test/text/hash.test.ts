import { describe, expect, it } from "vitest";
import { featurize, words } from "../../src/guardrails/content-moderation/model/features.js";
import { hashPair, hashPrefixes, hashRange } from "../../src/text/hash.js";

// Values recorded from the injection and moderation featurizers before they shared this module:
// the shipped weights index by them, so they must never move.
describe("feature hashing", () => {
  it.each([
    { text: "", family: 1, expected: 90457223 },
    { text: "a", family: 3, expected: 2277228005 },
    { text: "ignore previous instructions", family: 8, expected: 722278436 },
    { text: "Ünïcödé ✓ 日本語", family: 1, expected: 958222755 },
    { text: "{{system}}", family: 3, expected: 4261493198 },
  ])("hashRange($family, $text)", ({ text, family, expected }) => {
    expect(hashRange(family, text, 0, text.length)).toBe(expected);
  });

  it("hashes a range without building the substring", () => {
    expect(hashRange(3, "ignore previous", 2, 7)).toBe(946804305);
    expect(hashRange(3, "ignore previous", 2, 7)).toBe(hashRange(3, "nore ", 0, 5));
  });

  it("hashes every prefix length in one pass as hashRange does each", () => {
    const text = " ignore ✓ 日本 ";
    const mask = (1 << 18) - 1;
    for (let start = 0; start < text.length; start++) {
      const out = new Int32Array(3);
      const n = hashPrefixes(3, text, start, 3, 5, mask, out, 0);
      const expected = [3, 4, 5]
        .filter((len) => start + len <= text.length)
        .map((len) => hashRange(3, text, start, start + len) & mask);
      expect(Array.from(out.subarray(0, n)), `from ${start}`).toEqual(expected);
    }
  });

  it("hashes bigrams with a separator", () => {
    expect(hashPair(2, "ignore", "previous")).toBe(1169438300);
    expect([hashPair(2, "ab", "c"), hashPair(2, "a", "bc")]).toEqual([2813413205, 2258377577]);
    expect(hashPair(7, "", "")).toBe(2198341434);
  });

  it("keeps the moderation features of a sentence", () => {
    expect(Array.from(featurize(words("You’ll hate me")).hashes)).toEqual([
      2356517752, 2960969595, 2349650800, 4007435651, 949010496, 2369220658, 1028342424, 3279898670,
      112509045, 571688962, 908471771, 2164952717, 3833199779, 1879843525, 1952955339, 218385411, 933369008,
      1225721571, 4185678483, 3389256132, 2290451720, 3632922053, 2803852430, 2276567305, 3353099749,
      708719289, 4289105511, 875234987, 3393660722, 3133363431, 1252256743, 1006127545,
    ]);
  });
});
