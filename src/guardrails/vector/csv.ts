/**
 * A small RFC 4180 reader (https://www.rfc-editor.org/rfc/rfc4180): comma-separated, fields
 * optionally double-quoted, `""` inside quotes is a quote, and quoted fields may span lines.
 * Corpora exported from spreadsheets hold multi-line attacks, so splitting on newlines is not enough.
 */
export interface CsvTable {
  readonly header: readonly string[];
  /** Each row with its 1-based line number in the file, for error messages. */
  readonly rows: readonly { readonly line: number; readonly cells: readonly string[] }[];
}

export function parseCsv(text: string): CsvTable | { error: string } {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const source = text.startsWith("\ufeff") ? text.slice(1) : text;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      cells.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && source[i + 1] === "\n") i++;
      cells.push(field);
      if (cells.length > 1 || cells[0] !== "") records.push({ line: recordLine, cells });
      cells = [];
      field = "";
      line++;
      recordLine = line;
    } else field += c;
  }
  if (quoted) return { error: `line ${recordLine}: a quoted field is never closed` };
  cells.push(field);
  if (cells.length > 1 || cells[0] !== "") records.push({ line: recordLine, cells });
  const [first, ...rows] = records;
  if (!first) return { error: "the file is empty" };
  return { header: first.cells.map((h) => h.trim().toLowerCase()), rows };
}
