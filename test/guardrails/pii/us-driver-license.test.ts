import { describe, expect, it } from "vitest";
import { piiFound } from "../../helpers/pii-found.js";

const cases: { text: string; expected: string[] }[] = [
  // With licence words, any state-style token.
  { text: "driving licence no. 48120395", expected: ["48120395"] },
  { text: "DL# K2233445 renewed", expected: ["K2233445"] },
  // Without them, a layout with letters that the state named beside it issues.
  { text: "California B7654321 expires next year", expected: ["B7654321"] },
  { text: "CA: B7654321", expected: ["B7654321"] },
  { text: "issued in NJ, K12345678901234", expected: ["K12345678901234"] },
  { text: "Florida W123456789012 on file", expected: ["W123456789012"] },
  { text: "Nevada X12345678 holder", expected: ["X12345678"] },
  { text: "new york b7654321 and NEW YORK C7654321", expected: ["C7654321"] },
  { text: "West Virginia AB123456 on file", expected: ["AB123456"] },
  { text: "Iowa 123AB4567 please", expected: ["123AB4567"] },
  // The wrong layout for the state, digits-only states, unrelated numbers, words that look like codes.
  { text: "Nevada A12345678 holder", expected: [] },
  { text: "Virginia AB123456 on file", expected: [] },
  { text: "TX A1234567 and Texas 12345678", expected: [] },
  { text: "shipping to CA, order B7654321", expected: [] },
  { text: "flight from NY UA1234567 landed", expected: [] },
  { text: "In B7654321 we trust; or C7654321", expected: [] },
  { text: "OK A123456789 sent; HI B12345678", expected: [] },
  { text: "Oklahoma A123456789 on file", expected: ["A123456789"] },
  { text: "B7654321 alone is a code", expected: [] },
];

describe("pii: US driver licences", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(piiFound(text, "US_DRIVER_LICENSE")).toEqual(expected.map((e) => `US_DRIVER_LICENSE:${e}`));
  });
});
