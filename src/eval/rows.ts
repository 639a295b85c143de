import { checkInputFields } from "../engine/check-message-fields.js";
import type { ChatMessage } from "../engine/conversation/messages.js";
import { allText, messageTexts } from "../engine/conversation/texts.js";
import { InputError } from "../errors.js";
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
  /** A conversation (the `messages` column), checked instead of `text`, which then holds all its text. */
  readonly messages?: readonly ChatMessage[];
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
  const conversation =
    columns.messages === undefined
      ? undefined
      : messagesOf(item.values[columns.messages], columns.messages, maxChars);
  if (conversation && "invalid" in conversation)
    return { invalid: { ...where, reason: conversation.invalid } };
  const raw = conversation ? conversation.text : item.values[columns.text];
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
      ...(conversation ? { messages: conversation.messages } : {}),
    },
  };
}

/**
 * A row's `messages` as input-check takes them (a CSV cell holds their JSON text), with all their
 * text for views; undefined when the row has none, so its text column is read instead.
 */
function messagesOf(
  value: unknown,
  column: string,
  maxChars: number,
): { messages: ChatMessage[]; text: string } | { invalid: string } | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  try {
    const raw = typeof value === "string" ? JSON.parse(value) : value;
    const fields = checkInputFields({ messages: raw }, maxChars);
    const messages = "messages" in fields ? [...fields.messages] : [];
    return { messages, text: allText(messages.map(messageTexts)) };
  } catch (error) {
    if (error instanceof SyntaxError) return { invalid: `column ${column}: not JSON` };
    if (error instanceof InputError) return { invalid: `column ${column}: ${error.message}` };
    throw error;
  }
}
