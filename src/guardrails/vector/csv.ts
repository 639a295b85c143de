import { parse } from "csv-parse/sync";

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
  const lines = lineCounter(text);
  let records: Parsed[];
  try {
    // With `info: true` each record comes wrapped as { info, record }; csv-parse's types do not say so.
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
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
    return { error: `line ${line}: ${message.replace(/ at line \d+/, "")}` };
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

/**
 * Line numbers from csv-parse's byte offsets (its own line count takes a CRLF inside a quoted field
 * for two lines). `startAt(offset)` is the line of the first byte at or after `offset` that is not
 * part of a blank line csv-parse skipped; offsets must not decrease.
 */
function lineCounter(text: string) {
  const bytes = Buffer.from(text);
  // A line ends at \n, or at a \r not followed by \n (old Mac files, which csv-parse accepts).
  const ends = (i: number) => bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a);
  let at = 0;
  let line = 1;
  return {
    startAt(offset: number): number {
      for (; at < offset; at++) if (ends(at)) line++;
      for (; bytes[at] === 0x0a || bytes[at] === 0x0d; at++) if (ends(at)) line++;
      return line;
    },
  };
}
