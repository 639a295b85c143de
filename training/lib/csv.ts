import { parse } from "csv-parse/sync";

/**
 * Header-keyed rows of an RFC 4180 CSV (https://www.rfc-editor.org/rfc/rfc4180): quoted fields may
 * hold commas, doubled quotes and newlines. A row whose field count differs from the header's
 * throws rather than being padded or dropped, so a changed upstream file fails loudly.
 */
export function parseCsv(text: string): Record<string, string>[] {
  return parse<Record<string, string>>(text, { columns: true, bom: true, skip_empty_lines: true });
}
