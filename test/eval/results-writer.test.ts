import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTable } from "../../src/eval/readers/index.js";
import type { TableItem } from "../../src/eval/readers/types.js";
import { openResultsWriter } from "../../src/eval/results-writer.js";
import type { RowResult } from "../../src/eval/summary.js";

// Texts that break naive CSV: a comma, quotes, a line break, a CR, and quotes at both ends.
const texts = ['say "hi", then stop', "line one\nline two", "a\r\nb", '"quoted"', "plain"];
const results: RowResult[] = texts.map((_, i) => ({
  row: i + 1,
  line: i + 2,
  id: `r${i + 1}`,
  label: null,
  category: null,
  flagged: false,
  latency_ms: 1,
  engine_ms: 1,
  guardrails: {},
}));
const rows = texts.map((text) => ({ text }));

async function written(name: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "guardrail-out-")), name);
  const writer = openResultsWriter(file, []);
  await writer.write(rows.slice(0, 2), results.slice(0, 2));
  await writer.write(rows.slice(2), results.slice(2));
  await writer.close();
  return file;
}

describe("--out's rows file", () => {
  it("has a text column that the CSV reader gives back exactly", async () => {
    const file = await written("rows.csv");
    expect((await readFile(file, "utf8")).split("\n")[0]).toBe(
      "row,line,id,text,label,category,flagged,latency_ms,engine_ms",
    );
    const back: string[] = [];
    for await (const item of readTable(file, "csv") as AsyncIterable<TableItem>) {
      if (item.kind === "record") back.push(String(item.values.text));
      else expect(item.kind).toBe("columns");
    }
    expect(back).toEqual(texts);
  });

  it("has a text field after the id in JSON Lines", async () => {
    const lines = (await readFile(await written("rows.jsonl"), "utf8")).trimEnd().split("\n");
    const parsed = lines.map((l) => JSON.parse(l) as RowResult & { text: string });
    expect(parsed.map((r) => r.text)).toEqual(texts);
    expect(Object.keys(parsed[0] ?? {}).slice(0, 5)).toEqual(["row", "line", "id", "text", "label"]);
  });
});
