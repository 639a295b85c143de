import { parse } from "csv-parse/sync";
import { CSV_OPTIONS, createLineCounter, csvReason } from "../../text/csv.js";

/**
 * Reads a user corpus as RFC 4180 CSV (https://www.rfc-editor.org/rfc/rfc4180) with csv-parse:
 * quoted fields may span lines, since corpora exported from spreadsheets hold multi-line attacks.
 * Quotes inside an unquoted field are kept and short rows allowed, so a hand-written file is read
 * as written; what cannot be read becomes an error naming the line.
 */
export interface CsvTable {
  readonly header: readonly string[];
  /** Each row with its 1-based line number in the file, for error messages. */
  readonly rows: readonly { readonly line: number; readonly cells: readonly string[] }[];
}

interface Parsed {
  readonly info: { readonly bytes: number };
  readonly record: string[];
}

export function parseCsv(text: string): CsvTable | { error: string } {
  const lines = createLineCounter(text);
  let records: Parsed[];
  try {
    // With `info: true` each record comes wrapped as { info, record }; csv-parse's types do not say so.
    records = parse(text, {
      ...CSV_OPTIONS,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as unknown as Parsed[];
  } catch (error) {
    const {
      code,
      bytes_records: at = 0,
      message,
    } = error as { code?: unknown; bytes_records?: number; message: string };
    if (typeof code !== "string" || !code.startsWith("CSV_")) throw error;
    const line = lines.startAt(at);
    if (code === "CSV_QUOTE_NOT_CLOSED") return { error: `line ${line}: a quoted field is never closed` };
    return { error: `line ${line}: ${csvReason(message)}` };
  }
  let end = 0;
  const rows = records
    .map(({ info, record }) => {
      const line = lines.startAt(end);
      end = info.bytes;
      return { line, cells: record };
    })
    .filter(({ cells }) => cells.length > 1 || cells[0] !== "");
  const [first, ...rest] = rows;
  if (!first) return { error: "the file is empty" };
  return { header: first.cells.map((h) => h.trim().toLowerCase()), rows: rest };
}
