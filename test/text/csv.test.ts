import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { createLineCounter, csvReason, parseCsvObjects } from "../../src/text/csv.js";

describe("line counter", () => {
  it("counts \\n, \\r\\n and a lone \\r as one line end each", () => {
    const text = "a\nb\r\nc\rd";
    const lines = createLineCounter(text);
    expect([0, 2, 5, 7].map((offset) => lines.startAt(offset))).toEqual([1, 2, 3, 4]);
  });

  it("skips blank lines to the next record's first line", () => {
    expect(createLineCounter("a\n\n\r\n\nb\n").startAt(2)).toBe(5);
  });

  it("gives the line a record ends on, with or without its line end", () => {
    const lines = createLineCounter('h\r\n"x\r\ny"\r\nlast');
    expect(lines.endOf(3)).toBe(1);
    expect(lines.endOf(11)).toBe(3);
    expect(lines.endOf(15)).toBe(4);
  });

  it("counts a stream fed through its tap, a CRLF split across chunks included", async () => {
    const lines = createLineCounter();
    await pipeline(Readable.from(["a\r", "\nb\r", "\r", "\nc"]), lines.tap(), async (source) => {
      for await (const _ of source);
    });
    expect(lines.endOf(3)).toBe(1);
    expect(lines.endOf(9)).toBe(4);
  });
});

describe("csv", () => {
  it("drops csv-parse's own line number from its messages", () => {
    expect(csvReason("Invalid Closing Quote: got x at line 3")).toBe("Invalid Closing Quote: got x");
  });

  it("reads header-keyed rows and throws on a row of the wrong width", () => {
    expect(parseCsvObjects('\uFEFFtext,label\n"a,\nb",1\n\nc,0\n')).toEqual([
      { text: "a,\nb", label: "1" },
      { text: "c", label: "0" },
    ]);
    expect(() => parseCsvObjects("text,label\na,1,2\n")).toThrow(/Invalid Record Length/);
  });
});
