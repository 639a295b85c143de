import { UsageError } from "../errors.js";
import type { CheckMode } from "../guardrails/types.js";
import { excerpt, excerptList } from "./excerpt.js";

/** Which column holds what; `undefined` when the file has none (no labels, no categories, ...). */
export interface ColumnMap {
  readonly text: string;
  readonly label?: string;
  readonly prompt?: string;
  readonly category?: string;
  readonly id?: string;
  /** input mode: a row's chat messages (JSON Lines `messages`), checked as input-check checks them. */
  readonly messages?: string;
}

export interface ColumnOptions {
  readonly textColumn?: string;
  readonly labelColumn?: string;
  readonly promptColumn?: string;
  readonly categoryColumn?: string;
}

// In priority order: the first name present wins.
const TEXT: Record<CheckMode, readonly string[]> = {
  input: ["text", "prompt", "message", "input", "content", "query"],
  output: ["response", "text", "output", "completion", "answer", "message", "content"],
};
const PROMPT = ["prompt", "input", "question", "query"];
const LABEL = ["label", "expected", "is_injection", "flagged", "is_unsafe", "unsafe", "leak", "target"];
const CATEGORY = ["category", "attack_type", "technique"];
const ID = ["id", "row_id", "uid"];

function pick(columns: readonly string[], candidates: readonly string[], taken: readonly string[]) {
  const free = columns.filter((c) => !taken.includes(c));
  for (const candidate of candidates) {
    const found = free.find((c) => c.trim().toLowerCase() === candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

function named(columns: readonly string[], flag: string, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (columns.includes(name)) return name;
  throw new UsageError(`${flag} "${excerpt(name)}" is not a column; columns found: ${excerptList(columns)}`);
}

/** Chooses the columns from the flags, else by well-known names; says what it found when it cannot. */
export function resolveColumns(
  columns: readonly string[],
  options: ColumnOptions,
  mode: CheckMode,
): ColumnMap {
  // A `messages` field (JSON Lines of conversations) is read as input-check reads it.
  const messages = mode === "input" ? pick(columns, ["messages"], []) : undefined;
  const text =
    named(columns, "--text-column", options.textColumn) ?? pick(columns, TEXT[mode], []) ?? messages;
  if (text === undefined) {
    throw new UsageError(
      `cannot tell which column holds the ${mode === "input" ? "prompts" : "responses"}: columns found: ` +
        `${excerptList(columns)}; pass --text-column NAME (auto-detected: ${TEXT[mode].join(", ")})`,
    );
  }
  const label =
    named(columns, "--label-column", options.labelColumn) ??
    pick(columns, LABEL, [text, ...(messages ? [messages] : [])]);
  const prompt =
    mode === "output"
      ? (named(columns, "--prompt-column", options.promptColumn) ?? pick(columns, PROMPT, [text]))
      : undefined;
  if (mode === "input" && options.promptColumn !== undefined) {
    throw new UsageError("--prompt-column only applies with --mode output");
  }
  const taken = [text, label, prompt, messages].filter((c): c is string => c !== undefined);
  const category =
    named(columns, "--category-column", options.categoryColumn) ?? pick(columns, CATEGORY, taken);
  const id = pick(columns, ID, [...taken, ...(category ? [category] : [])]);
  return {
    text,
    ...(label ? { label } : {}),
    ...(prompt ? { prompt } : {}),
    ...(category ? { category } : {}),
    ...(id ? { id } : {}),
    ...(messages ? { messages } : {}),
  };
}

/**
 * Why a run has no tp/fp/tn/fn: which columns the file has, which were used for what and which
 * were ignored, and how to name the label column. Undefined when a label column was found.
 */
export function describeMissingLabels(header: readonly string[], map: ColumnMap): string | undefined {
  if (map.label !== undefined) return undefined;
  const roles = new Map<string, string>([[map.text, "text"]]);
  if (map.prompt !== undefined) roles.set(map.prompt, "prompt");
  if (map.category !== undefined) roles.set(map.category, "category");
  if (map.id !== undefined) roles.set(map.id, "id");
  const shown = header.map((c) => `${excerpt(c)} (${roles.get(c) ?? "ignored"})`);
  return (
    `no label column, so no tp/fp/tn/fn, recall or F1: columns found: ${shown.join(", ") || "none"}; ` +
    `a label column is recognised by name (${LABEL.join(", ")}): pass --label-column NAME to use another`
  );
}
