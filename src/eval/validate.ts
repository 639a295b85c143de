import { UsageError } from "../errors.js";
import type { CheckMode } from "../guardrails/types.js";
import { type ColumnMap, type ColumnOptions, resolveColumns } from "./columns.js";
import { excerpt } from "./excerpt.js";
import type { TableItem } from "./readers/types.js";
import { toEvalRow } from "./rows.js";
import type { InvalidRow } from "./summary.js";

export interface Validation {
  readonly columns: ColumnMap;
  /** Every column the header (or a JSONL file's first record) names, used or not. */
  readonly header: readonly string[];
  /** Valid rows: what the run will evaluate. */
  readonly total: number;
  readonly invalidCount: number;
  /** The first invalid rows, for the report. */
  readonly invalid: readonly InvalidRow[];
}

const SHOWN = 20;

/**
 * The first of two passes over the file: resolves the columns and finds every bad row without
 * running a guardrail, so a bad file fails (exit 2) before any work. Holds only counts and the
 * first few problems, never the rows. Rows with a text over `maxChars` are bad rows.
 */
export async function validateTable(
  items: AsyncIterable<TableItem>,
  options: ColumnOptions,
  mode: CheckMode,
  maxChars = Number.POSITIVE_INFINITY,
): Promise<Validation> {
  let columns: ColumnMap | undefined;
  let header: readonly string[] = [];
  let total = 0;
  let invalidCount = 0;
  const invalid: InvalidRow[] = [];
  const bad = (row: InvalidRow) => {
    invalidCount++;
    if (invalid.length < SHOWN) invalid.push(row);
  };
  // A header of blank names is no header (a file of blank lines), unless rows follow it.
  let blank: readonly string[] | undefined;
  for await (const item of items) {
    if (item.kind === "columns") {
      header = item.columns;
      if (item.columns.every((c) => c.trim() === "")) blank = item.columns;
      else columns = resolveColumns(item.columns, options, mode);
      continue;
    }
    if (blank !== undefined && columns === undefined) columns = resolveColumns(blank, options, mode);
    if (item.kind === "invalid") bad(item);
    else {
      const result = toEvalRow(item, columns as ColumnMap, maxChars);
      if ("invalid" in result) bad(result.invalid);
      else total++;
    }
  }
  if (columns === undefined && invalidCount === 0) {
    throw new UsageError("the file is empty");
  }
  return { columns: columns as ColumnMap, header, total, invalidCount, invalid };
}

export function describeInvalid(v: Validation, file: string): string {
  // Reasons quote the file (a JSON parser's snippet of the line): escaped, they cannot drive a terminal.
  const lines = v.invalid.map((r) => `  row ${r.row} (line ${r.line}): ${excerpt(r.reason, 300)}`);
  const more = v.invalidCount > v.invalid.length ? [`  … and ${v.invalidCount - v.invalid.length} more`] : [];
  return [
    `${file}: ${v.invalidCount} invalid row${v.invalidCount === 1 ? "" : "s"}:`,
    ...lines,
    ...more,
  ].join("\n");
}

/** Stops with exit 2 on bad rows unless `--skip-invalid`; an empty file is always an error. */
export function requireValid(v: Validation, file: string, skipInvalid: boolean): void {
  if (v.invalidCount > 0 && !skipInvalid) {
    throw new UsageError(
      `${describeInvalid(v, file)}\nfix them, or pass --skip-invalid to count and skip them`,
    );
  }
  if (v.total === 0) throw new UsageError(`${file}: no rows to evaluate`);
}
