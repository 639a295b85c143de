import { describe, expect, it } from "vitest";
import { releasableEnd, tailStart } from "../../src/stream/text-bounds.js";

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

describe("tailStart on sentences", () => {
  const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} has a few more words in it. `).join("");

  it("starts at the last sentence that began at least 256 characters before the chunk", () => {
    for (const start of [300, 555, 1000, 1400]) {
      const from = tailStart(text, start, 2000);
      expect(start - from).toBeGreaterThanOrEqual(256);
      expect(text.slice(from)).toMatch(/^Sentence \d+ has/);
      // The next sentence start would leave less than 256 characters.
      const next = text.indexOf("Sentence", from + 1);
      expect(start - next).toBeLessThan(256);
    }
  });

  it("moves once per sentence, and never past tailChars", () => {
    const starts = new Set<number>();
    for (let start = 600; start < 1000; start++) starts.add(tailStart(text, start, 2000));
    const crossed = [...text.slice(600 - 256, 1000 - 256).matchAll(/Sentence/g)].length;
    expect(starts.size).toBeLessThanOrEqual(crossed + 1);
    expect(600 - tailStart(text, 600, 100)).toBeLessThanOrEqual(100);
  });
});

describe("releasableEnd", () => {
  const text =
    "One sentence here. Another sentence follows it. And a third one that is long enough to pass. ";

  it("releases to the start of the last sentence that began 64 characters before what passed", () => {
    expect(releasableEnd(text, 0, text.length, 64, 400)).toBe(19);
    expect(releasableEnd(text, 0, 60, 64, 400)).toBe(0);
    expect(releasableEnd(text, 19, text.length, 64, 400)).toBe(19);
    expect(releasableEnd(text, 0, text.length, 10, 400)).toBe(48);
  });

  it("releases a sentence longer than sentenceHold in word steps, and word by word with 0", () => {
    const runOn = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
    const end = releasableEnd(runOn, 0, runOn.length, 64, 200);
    expect(end).toBeGreaterThan(200);
    expect(runOn[end - 1]).toBe(" ");
    expect(releasableEnd(runOn, 0, 100, 64, 200)).toBe(0);
    expect(releasableEnd(runOn, 0, 100, 64, 0)).toBeGreaterThan(0);
  });
});
