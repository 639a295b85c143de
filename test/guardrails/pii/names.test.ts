import { describe, expect, it } from "vitest";
import { detectPii } from "../../../src/guardrails/pii/index.js";

function found(text: string): string[] {
  return detectPii(text).map((s) => `${s.label}:${text.slice(s.start, s.end)}`);
}

const cases: { text: string; expected: string[] }[] = [
  { text: "Please ask Tamara Lundberg about it", expected: ["PERSON:Tamara Lundberg"] },
  { text: "Mr. Ford is a 50 year old man", expected: ["PERSON:Ford"] },
  { text: "She moved to Austria last year", expected: ["LOCATION:Austria"] },
  { text: "My friend lives in Punkaharju", expected: ["LOCATION:Punkaharju"] },
  { text: "I work at Acme Widgets Inc", expected: ["ORGANIZATION:Acme Widgets Inc"] },
  { text: "The report came from Experian", expected: ["ORGANIZATION:Experian"] },
  { text: "Ship it to 221 Baker Street, London", expected: ["ADDRESS:221 Baker Street, London"] },
  { text: "We will grace the meeting with hope", expected: [] },
];

describe("pii name recognisers", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(found(text)).toEqual(expected);
  });
});
