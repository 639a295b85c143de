import { describe, expect, it } from "vitest";
import { tailStart } from "../../src/stream/text-bounds.js";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("tailStart", () => {
  it("sends everything while the response is shorter than the tail", () => {
    expect(tailStart("short text", 10, 4000)).toBe(0);
  });

  it("keeps the context within tailChars and starts it at a word", () => {
    const text = words(2000);
    for (const start of [4500, 5003, 7777, 10_001]) {
      const from = tailStart(text, start, 4000);
      expect(start - from).toBeLessThanOrEqual(4000);
      expect(start - from).toBeGreaterThan(2900);
      expect(text[from - 1]).toBe(" ");
    }
  });

  it("holds the same start for a quarter of the tail, so consecutive checks share their windows", () => {
    const text = words(2000);
    const starts = new Set<number>();
    for (let start = 5001; start < 6000; start += 13) starts.add(tailStart(text, start, 4000));
    expect(starts.size).toBe(1);
    expect(tailStart(text, 6100, 4000)).toBeGreaterThan([...starts][0] as number);
  });

  it("never starts between the halves of a surrogate pair", () => {
    const text = "😀".repeat(3000);
    for (const start of [4001, 4500, 5998]) {
      const from = tailStart(text, start, 4000);
      expect(text.charCodeAt(from) >= 0xdc00 && text.charCodeAt(from) <= 0xdfff).toBe(false);
    }
  });
});
