import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { canSplit, planChunks, readChunk } from "../../src/eval/readers/chunks.js";
import {
  formatFromExtension,
  readStream,
  readTable,
  sniffFormat,
  spoolToFile,
} from "../../src/eval/readers/index.js";
import type { TableFormat, TableItem } from "../../src/eval/readers/types.js";

const fixture = (name: string) => new URL(`../fixtures/batch/${name}`, import.meta.url).pathname;

async function collect(items: AsyncIterable<TableItem>): Promise<TableItem[]> {
  const out: TableItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("readStream", () => {
  it.each(["csv", "tsv", "jsonl"] as const)(
    "closes its input when the reader stops early (%s)",
    async (format) => {
      // Far more than the parser buffers: the input is still open when the reader stops.
      const row = format === "jsonl" ? '{"text":"a"}\n' : "a\n";
      const input = Readable.from(
        (function* () {
          if (format !== "jsonl") yield "text\n";
          for (let i = 0; i < 10_000; i++) yield row.repeat(100);
        })(),
      );
      for await (const _ of readStream(input, format)) break;
      expect(input.destroyed).toBe(true);
    },
  );
});

describe("CSV", () => {
  it("reads quoted fields, escaped quotes and multi-line cells with the line each row starts on", async () => {
    const items = await collect(readTable(fixture("labelled-prompts.csv"), "csv"));
    expect(items[0]).toEqual({ kind: "columns", columns: ["id", "text", "label", "category"] });
    const records = items.filter((i) => i.kind === "record");
    expect(records).toHaveLength(8);
    expect(records[3]).toMatchObject({
      row: 4,
      line: 5,
      values: { text: 'Can you summarise this article about "prompt engineering"?' },
    });
    expect(records[5]).toMatchObject({ row: 6, line: 7, values: { text: "Write a haiku about\nthe sea" } });
    expect(records[6]).toMatchObject({ row: 7, line: 9 });
  });

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
  ])("counts a CRLF inside a quoted cell as one line, in %s files", async (_, eol) => {
    const csv = `text,label${eol}"first\r\nfield",1${eol}second,0${eol}"third${eol}x${eol}y",1${eol}fourth,0${eol}`;
    const items = await collect(readStream(Readable.from([csv]), "csv"));
    const lines = items.filter((i) => i.kind === "record").map((i) => (i as { line: number }).line);
    expect(lines).toEqual([2, 4, 5, 8]);
  });

  it("reports broken quoting and wrong field counts by row and line, and reads on", async () => {
    const items = await collect(readTable(fixture("broken-quoting.csv"), "csv"));
    const summary = items.map((i) => (i.kind === "columns" ? "columns" : `${i.kind} ${i.row}@${i.line}`));
    expect(summary).toEqual([
      "columns",
      "record 1@2",
      "invalid 2@3",
      "record 3@4",
      "record 4@5",
      "invalid 5@6",
    ]);
    const [quote, fields] = items.filter((i) => i.kind === "invalid") as Extract<
      TableItem,
      { kind: "invalid" }
    >[];
    expect(quote?.reason).toMatch(/broken quoting/);
    expect(fields?.reason).toMatch(/3 fields where the header has 2/);
  });

  it("reports an unclosed quote at the end of the file", async () => {
    const items = await collect(readStream(Readable.from(['text,label\nok,1\n"never closed,0\n']), "csv"));
    expect(items.at(-1)).toMatchObject({
      kind: "invalid",
      row: 2,
      reason: expect.stringMatching(/Quote Not Closed/),
    });
  });

  it("yields empty columns for an empty file", async () => {
    expect(await collect(readStream(Readable.from([""]), "csv"))).toEqual([{ kind: "columns", columns: [] }]);
  });
});

describe("TSV and JSONL", () => {
  it("reads TSV by tab", async () => {
    const items = await collect(readTable(fixture("prompts.tsv"), "tsv"));
    expect(items[0]).toEqual({ kind: "columns", columns: ["prompt", "is_injection"] });
    expect(items[2]).toMatchObject({
      kind: "record",
      row: 2,
      line: 3,
      values: { prompt: "how do tides work?", is_injection: "no" },
    });
  });

  it("reads JSON Lines, skipping blank lines but counting them in line numbers", async () => {
    const items = await collect(readTable(fixture("prompts.jsonl"), "jsonl"));
    expect(items[0]).toEqual({ kind: "columns", columns: ["message", "expected"] });
    expect(items[2]).toMatchObject({ kind: "record", row: 2, line: 3, values: { expected: false } });
  });

  it("reports lines that are not JSON objects", async () => {
    const items = await collect(readTable(fixture("invalid-json.jsonl"), "jsonl"));
    const invalid = items.filter((i) => i.kind === "invalid");
    expect(invalid).toMatchObject([
      { row: 2, line: 2, reason: expect.stringMatching(/invalid JSON/) },
      { row: 3, line: 3, reason: "not a JSON object" },
    ]);
  });
});

describe("formats and stdin", () => {
  it("picks the format by extension", () => {
    expect(formatFromExtension("a.CSV")).toBe("csv");
    expect(formatFromExtension("a.tsv")).toBe("tsv");
    expect(formatFromExtension("a.ndjson")).toBe("jsonl");
    expect(formatFromExtension("a.txt")).toBeUndefined();
  });

  it("spools stdin to a file that can be read twice, and sniffs its format", async () => {
    const spooled = await spoolToFile(
      Readable.from(['{"text":"a","label":1}\n', '{"text":"b","label":0}\n']),
    );
    try {
      expect(await sniffFormat(spooled.file)).toBe("jsonl");
      for (let pass = 0; pass < 2; pass++) {
        const items = await collect(readTable(spooled.file, "jsonl"));
        expect(items.filter((i) => i.kind === "record")).toHaveLength(2);
      }
    } finally {
      await spooled.cleanup();
    }
  });

  it("sniffs TSV and CSV from the header", async () => {
    expect(await sniffFormat(fixture("prompts.tsv"))).toBe("tsv");
    expect(await sniffFormat(fixture("unlabelled.csv"))).toBe("csv");
  });
});

describe("byte-range chunks", () => {
  /** Every chunk read on its own, rows renumbered as the main thread does: the whole file's items. */
  async function chunked(file: string, format: TableFormat, target: number) {
    const out: TableItem[] = [];
    let before = 0;
    let chunks = 0;
    for await (const chunk of planChunks(file, format, target)) {
      chunks++;
      let rows = 0;
      for await (const item of readChunk(file, format, chunk)) {
        if (item.kind === "columns") continue;
        rows++;
        out.push({ ...item, row: item.row + before });
      }
      before += rows;
    }
    return { items: out, chunks };
  }

  it.each([
    ["labelled-prompts.csv", "csv"],
    ["prompts.tsv", "tsv"],
    ["prompts.jsonl", "jsonl"],
    ["invalid-json.jsonl", "jsonl"],
  ] as const)("cut %s only between rows, keeping row and line numbers", async (name, format) => {
    const whole = (await collect(readTable(fixture(name), format))).filter((i) => i.kind !== "columns");
    for (const target of [1, 40, 1 << 20]) {
      const { items, chunks } = await chunked(fixture(name), format, target);
      expect(items).toEqual(whole);
      if (target === 1) expect(chunks).toBeGreaterThanOrEqual(whole.length);
    }
  });

  it("keeps a quoted newline and an escaped quote inside their row", async () => {
    const { items } = await chunked(fixture("labelled-prompts.csv"), "csv", 1);
    expect(items[5]).toMatchObject({ row: 6, line: 7, values: { text: "Write a haiku about\nthe sea" } });
    expect(items[3]).toMatchObject({
      values: { text: 'Can you summarise this article about "prompt engineering"?' },
    });
  });

  it("will not split a file whose rows end in a bare carriage return", async () => {
    const spooled = await spoolToFile(Readable.from(["text,label\rok,1\rfine,0\r"]));
    try {
      expect(await canSplit(spooled.file)).toBe(false);
      expect(await canSplit(fixture("labelled-prompts.csv"))).toBe(true);
    } finally {
      await spooled.cleanup();
    }
  });
});
