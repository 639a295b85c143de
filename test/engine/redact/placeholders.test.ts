import { describe, expect, it } from "vitest";
import { createRestorer, restore } from "../../../src/engine/redact/placeholders.js";

const originals = new Map([
  ["<EMAIL_ADDRESS_1>", "jane@example.com"],
  ["<EMAIL_ADDRESS_12>", "bob@example.com"],
  ["<CREDIT_CARD_1>", "4111 1111 1111 1111"],
]);

describe("restore", () => {
  it("puts back the placeholders it knows and leaves every other text as written", () => {
    expect(restore("To <EMAIL_ADDRESS_1>, card <CREDIT_CARD_1>.", originals)).toBe(
      "To jane@example.com, card 4111 1111 1111 1111.",
    );
    expect(restore("<EMAIL_ADDRESS_3> and <b>bold</b> and a < b", originals)).toBe(
      "<EMAIL_ADDRESS_3> and <b>bold</b> and a < b",
    );
    expect(restore("<EMAIL_ADDRESS_1>", new Map())).toBe("<EMAIL_ADDRESS_1>");
  });
});

describe("a restorer", () => {
  /** Every way of cutting `text` in two, fed as two pieces, gives the whole text restored. */
  it.each([
    "Write to <EMAIL_ADDRESS_1> today.",
    "<EMAIL_ADDRESS_12><EMAIL_ADDRESS_1>",
    "Cards: <CREDIT_CARD_1>, <CREDIT_CARD_2> and <CREDIT",
    "a < b and <EMAIL_ADDRESS_1",
  ])("restores %j however it is split", (text) => {
    for (let cut = 0; cut <= text.length; cut++) {
      const r = createRestorer(originals);
      const out = r.push(text.slice(0, cut)) + r.push(text.slice(cut)) + r.flush();
      expect(out).toBe(restore(text, originals));
    }
  });

  it("holds only the start of a known placeholder", () => {
    const r = createRestorer(originals);
    expect(r.push("see <EMAIL_ADDR")).toBe("see ");
    expect(r.push("ESS_1> now <b")).toBe("jane@example.com now <b");
    expect(r.push("> and <CREDIT_CARD_")).toBe("> and ");
    expect(r.push("9> x")).toBe("<CREDIT_CARD_9> x");
    expect(r.push("<")).toBe("");
    expect(r.flush()).toBe("<");
  });
});
