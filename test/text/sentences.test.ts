import { describe, expect, it } from "vitest";
import { lastSentenceStart, SENTENCE_BREAK, unfinishedSentenceStart } from "../../src/text/sentences.js";

describe("unfinishedSentenceStart", () => {
  it("is where the last sentence began when it has not ended", () => {
    expect(unfinishedSentenceStart("One. Two is still")).toBe(5);
    expect(unfinishedSentenceStart("no break at all")).toBe(0);
    expect(unfinishedSentenceStart("Line one\nline two")).toBe(9);
  });

  it("is the text's length when every sentence has ended", () => {
    expect(unfinishedSentenceStart("One. Two! ")).toBe(10);
    expect(unfinishedSentenceStart('Quoted." ')).toBe(9);
    expect(unfinishedSentenceStart("")).toBe(0);
  });

  it("does not count a full stop with nothing after it: 3.14 may follow", () => {
    expect(unfinishedSentenceStart("Pi is 3.")).toBe(0);
  });
});

describe("lastSentenceStart", () => {
  const text = "First one. Second one! Third one? Fourth";
  it("finds the last sentence start after `from` and at or before `to`", () => {
    expect(lastSentenceStart(text, 0, text.length)).toBe(34);
    expect(lastSentenceStart(text, 0, 30)).toBe(23);
    expect(lastSentenceStart(text, 11, 22)).toBeUndefined();
    expect(lastSentenceStart(text, 10, 11)).toBe(11);
  });

  it("does not count a line break without punctuation: the checks see it as a space", () => {
    expect(lastSentenceStart("- item one\n- item two\n", 0, 22)).toBeUndefined();
    expect(lastSentenceStart("Done.\nNext", 0, 10)).toBe(6);
  });

  it("sees a break whose punctuation lies before `from` (the look-behind), and agrees with a full scan", () => {
    const quoted = 'He said "stop." Then left.) And more.\nA line. ';
    // SENTENCE_BREAK without its line-break alternative.
    const punctuation = new RegExp(SENTENCE_BREAK.source.split("|")[0] as string, "g");
    const all = [...quoted.matchAll(punctuation)].map((m) => m.index + m[0].length);
    for (let to = 1; to <= quoted.length; to++)
      for (let from = 0; from < to; from++) {
        const expected = all.filter((s) => s > from && s <= to).at(-1);
        // A break cut at `to` ends at `to`: the rest of its spaces are not needed.
        const got = lastSentenceStart(quoted, from, to);
        if (expected !== undefined) expect(got).toBe(expected);
        else if (got !== undefined) expect(quoted[got - 1]).toMatch(/\s/);
      }
  });
});
