import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { TableItem } from "./types.js";

/** Streams JSON Lines: one object per line; blank lines are skipped. Columns are the first object's keys. */
export async function* readJsonl(input: Readable): AsyncGenerator<TableItem> {
  let line = 0;
  let row = 0;
  let columns: string[] | undefined;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() === "") continue;
    row++;
    let value: unknown;
    try {
      value = JSON.parse(line === 1 ? text.replace(/^\uFEFF/, "") : text);
    } catch (error) {
      yield { kind: "invalid", row, line, reason: `invalid JSON: ${(error as Error).message}` };
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      yield { kind: "invalid", row, line, reason: "not a JSON object" };
      continue;
    }
    if (columns === undefined) {
      columns = Object.keys(value);
      yield { kind: "columns", columns };
    }
    yield { kind: "record", row, line, values: value as Record<string, unknown> };
  }
  if (columns === undefined) yield { kind: "columns", columns: [] };
}
