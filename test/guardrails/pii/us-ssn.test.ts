import { describe, expect, it } from "vitest";
import { piiFound } from "../../helpers/pii-found.js";

const cases: { text: string; expected: string[] }[] = [
  // Dashed and dotted 3-2-4 groups stand on their own.
  { text: "employee 219-09-9999 onboarded", expected: ["219-09-9999"] },
  { text: "on the form: 219.09.9999, signed", expected: ["219.09.9999"] },
  { text: "lib 219.09.9999.2 released", expected: [] },
  // Spaced groups and bare digits need SSN words.
  { text: "her SSN is 219 09 9999", expected: ["219 09 9999"] },
  { text: "ss# 219 09 9999 on file", expected: ["219 09 9999"] },
  { text: "social security no. 219099999", expected: ["219099999"] },
  { text: "dial 219 09 9999 for sales", expected: [] },
  { text: "SSN: 219 09 9999 12 is too long", expected: [] },
  { text: "a bare 219099999 is just a number", expected: [] },
  // Never issued: area 000, 666 or 9xx, group 00, serial 0000.
  { text: "ssn 666.09.9999 or 219.00.9999", expected: [] },
];

describe("pii: US social security numbers", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(piiFound(text, "US_SSN")).toEqual(expected.map((e) => `US_SSN:${e}`));
  });
});
