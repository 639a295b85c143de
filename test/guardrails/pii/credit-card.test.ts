import { describe, expect, it } from "vitest";
import { piiFound } from "../../helpers/pii-found.js";

const cases: { text: string; expected: string[] }[] = [
  // Several cards in one text: plain, dashed and spaced groups, each its own span.
  {
    text: "on file: 4111111111111111, 5500-0000-0000-0004 and 3400 000000 00009",
    expected: ["4111111111111111", "5500-0000-0000-0004", "3400 000000 00009"],
  },
  {
    text: "cards 4111111111111111 6011001122334453 both declined",
    expected: ["4111111111111111", "6011001122334453"],
  },
  {
    text: "old 4111 1111 1111 1111 5500 0000 0000 0004 new",
    expected: ["4111 1111 1111 1111", "5500 0000 0000 0004"],
  },
  {
    text: "diners 3056 123456 7894 and visa 4532-0123-4567-8901-235",
    expected: ["3056 123456 7894", "4532-0123-4567-8901-235"],
  },
  // A stray number before a card is not glued onto it; one Luhn failure does not hide the next.
  { text: "row 7: 4111 1111 1111 1111", expected: ["4111 1111 1111 1111"] },
  { text: "card 4111 1111 1111 1112 then 5500 0000 0000 0004", expected: ["5500 0000 0000 0004"] },
  { text: "card 41 1111 1111 1111 11 is oddly split", expected: [] },
  { text: "serial X4111111111111111 on the label", expected: [] },
  // Twelve-digit Maestro numbers only standing alone and next to card words.
  { text: "my Maestro card 6759 0011 2235 expires soon", expected: ["6759 0011 2235"] },
  { text: "debit card number 676200987656", expected: ["676200987656"] },
  { text: "card 6759-0011-2235 please", expected: ["6759-0011-2235"] },
  { text: "call 676200987656 tomorrow", expected: [] },
  { text: "Maestro card 6759 0011 2235 1234 typo", expected: [] },
  { text: "debit card for account 676200987656", expected: [] },
  { text: "card 6759 0011 2236", expected: [] },
];

describe("pii: credit cards", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(piiFound(text, "CREDIT_CARD")).toEqual(expected.map((e) => `CREDIT_CARD:${e}`));
  });
});
