import { describe, expect, it } from "vitest";
import { codePoints, overLimit } from "../../src/text/length.js";

describe("message length", () => {
  it("counts code points: an emoji outside the BMP is one", () => {
    expect(codePoints("😀😀a")).toBe(3);
  });

  it("says whether a text is over the limit as sent or only after NFKC", () => {
    expect(overLimit("x".repeat(10), 10)).toBeUndefined();
    expect(overLimit("😀".repeat(10), 10)).toBeUndefined();
    expect(overLimit("x".repeat(11), 10)).toBe("sent");
    // One U+FDFA is one character as sent and 18 after NFKC.
    expect(overLimit("\ufdfa", 18)).toBeUndefined();
    expect(overLimit("\ufdfa", 17)).toBe("normalized");
  });
});
