import { codePoints, overLimit } from "../text/length.js";
import type { ColumnMap } from "./columns.js";
import { normalizeLabel } from "./labels.js";
import type { TableItem } from "./readers/types.js";
import type { InvalidRow } from "./summary.js";

/** A data row ready for the engine. */
export interface EvalRow {
  readonly row: number;
  readonly line: number;
  readonly id: string | null;
  readonly text: string;
  readonly prompt?: string;
  readonly label: boolean | null;
  readonly category: string | null;
}

const cell = (value: unknown): string | undefined =>
  value === undefined || value === null
    ? undefined
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

const tooLong = (column: string, text: string, maxChars: number) => {
  const over = overLimit(text, maxChars);
  if (over === undefined) return undefined;
  const length = over === "sent" ? codePoints(text) : codePoints(text.normalize("NFKC"));
  const when = over === "normalized" ? " after Unicode normalization (NFKC)" : "";
  return `column ${column}: ${length} characters${when}, over the limit of ${maxChars} (--max-message-chars; the server refuses such a message)`;
};

/**
 * Turns a reader's record into a row, or says why it is invalid (empty text, unknown label, a text
 * longer than `maxChars`, ...).
 */
export function toEvalRow(
  item: Extract<TableItem, { kind: "record" }>,
  columns: ColumnMap,
  maxChars = Number.POSITIVE_INFINITY,
): { row: EvalRow } | { invalid: InvalidRow } {
  const where = { row: item.row, line: item.line };
  const raw = item.values[columns.text];
  if (raw !== undefined && raw !== null && typeof raw !== "string") {
    return { invalid: { ...where, reason: `column ${columns.text} is not a string` } };
  }
  if (raw === undefined) return { invalid: { ...where, reason: `missing field ${columns.text}` } };
  if (raw === null || raw.trim() === "") {
    return { invalid: { ...where, reason: `empty text in column ${columns.text}` } };
  }
  const long = tooLong(columns.text, raw, maxChars);
  if (long) return { invalid: { ...where, reason: long } };
  let label: boolean | null = null;
  if (columns.label !== undefined) {
    const result = normalizeLabel(item.values[columns.label]);
    if (!result.ok) return { invalid: { ...where, reason: `column ${columns.label}: ${result.reason}` } };
    label = result.label;
  }
  const prompt = columns.prompt === undefined ? undefined : cell(item.values[columns.prompt]);
  const longPrompt = prompt === undefined ? undefined : tooLong(columns.prompt as string, prompt, maxChars);
  if (longPrompt) return { invalid: { ...where, reason: longPrompt } };
  const category = columns.category === undefined ? undefined : cell(item.values[columns.category])?.trim();
  const id = columns.id === undefined ? undefined : cell(item.values[columns.id]);
  return {
    row: {
      ...where,
      id: id ?? null,
      text: raw,
      ...(prompt ? { prompt } : {}),
      label,
      category: category || null,
    },
  };
}
