import { describe, expect, it } from "vitest";
import { wrongSecret } from "./wrong-secret.js";

describe("wrongSecret", () => {
  it("differs from every secret in one character, whatever the secret ends in", () => {
    for (const last of "ABCQgw-_09") {
      const secret = `grk_${"x".repeat(42)}${last}`;
      const wrong = wrongSecret(secret);
      expect(wrong).not.toBe(secret);
      expect(wrong).toHaveLength(secret.length);
      expect(wrong.slice(0, -1)).toBe(secret.slice(0, -1));
    }
  });

  it("refuses an empty secret rather than return one that matches", () => {
    expect(() => wrongSecret("")).toThrow(/non-empty/);
  });
});
