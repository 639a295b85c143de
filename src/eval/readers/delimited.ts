import type { Readable } from "node:stream";
import { type CsvError, type Options, parse } from "csv-parse";
import { CSV_OPTIONS, createLineCounter, csvReason } from "../../text/csv.js";
import type { TableItem } from "./types.js";

interface Parsed {
  readonly row: number;
  readonly line: number;
  readonly fields: string[];
}

const count = (field: string, pattern: RegExp) => field.match(pattern)?.length ?? 0;
/** Line breaks inside a quoted field, as an editor counts them. */
const lineBreaks = (field: string) => count(field, /\r\n|\r|\n/g);
/** csv-parse counts a CRLF inside a quoted field as two lines: how far its count runs ahead. */
const crlfs = (field: string) => count(field, /\r\n/g);

/**
 * Streams a CSV or TSV (RFC 4180 quoting in both) with a header row. Broken quoting and rows with
 * the wrong number of fields become `invalid` items with their row and line; parsing continues.
 */
export async function* readDelimited(input: Readable, delimiter: "," | "\t"): AsyncGenerator<TableItem> {
  let rows = -1; // the header is row 0
  let lastSkipLine = -1;
  const lines = createLineCounter();
  let ahead = 0;
  const invalid: Extract<TableItem, { kind: "invalid" }>[] = [];
  const options: Options = {
    delimiter,
    // Named rather than detected: until csv-parse has seen a line end it rescans what it holds on
    // every chunk, so a file of one 50 MB line took half a minute.
    record_delimiter: ["\r\n", "\n", "\r"],
    ...CSV_OPTIONS,
    relax_column_count: true,
    skip_records_with_error: true,
    // Called synchronously in file order, so row numbers interleave correctly with skipped rows.
    on_record: (fields: string[], context: { bytes: number }) => {
      rows++;
      ahead += fields.reduce((sum, f) => sum + crlfs(f), 0);
      const line = lines.endOf(context.bytes) - fields.reduce((sum, f) => sum + lineBreaks(f), 0);
      return { row: rows, line, fields } satisfies Parsed as unknown as string[];
    },
    on_skip: (error: CsvError | undefined) => {
      // The line where csv-parse gave up (its byte offsets only say where the last good record
      // ended), less the CRLFs it has double-counted so far.
      const line = typeof error?.lines === "number" ? error.lines - ahead : 0;
      // One broken line can raise more than one error as the parser resynchronises: one row.
      if (line !== 0 && line === lastSkipLine) return undefined;
      lastSkipLine = line;
      rows++;
      const reason = csvReason(error?.message ?? "unreadable row");
      invalid.push({ kind: "invalid", row: rows, line, reason: `broken quoting: ${reason}` });
      return undefined;
    },
  };
  const parser = input.pipe(lines.tap()).pipe(parse(options));
  input.on("error", (error) => parser.destroy(error));
  let columns: string[] | undefined;
  for await (const parsed of parser as AsyncIterable<Parsed>) {
    while (invalid.length > 0 && (invalid[0]?.row ?? 0) < parsed.row) yield invalid.shift() as TableItem;
    if (columns === undefined) {
      columns = parsed.fields.map((c) => c.trim());
      yield { kind: "columns", columns };
      continue;
    }
    if (parsed.fields.length !== columns.length) {
      yield {
        kind: "invalid",
        row: parsed.row,
        line: parsed.line,
        reason: `${parsed.fields.length} fields where the header has ${columns.length} (a stray quote or ${delimiter === "," ? "comma" : "tab"}?)`,
      };
      continue;
    }
    const values: Record<string, unknown> = {};
    columns.forEach((name, i) => {
      values[name] = parsed.fields[i];
    });
    yield { kind: "record", row: parsed.row, line: parsed.line, values };
  }
  yield* invalid;
  if (columns === undefined) yield { kind: "columns", columns: [] };
}
