import { isMap, isScalar, type Node, parseDocument, type YAMLMap } from "yaml";
import { UsageError } from "../errors.js";
import type { GuardrailId } from "../guardrails/types.js";

interface Edit {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Sets `guardrails.<id>.threshold` in a profile's YAML by editing the text in place: the file stays
 * byte for byte as it was outside the values written (re-printing the document re-wrapped long
 * lines and wrote `[a]` as `[ a ]`). A threshold already there has its value replaced; a missing one
 * is added to the guardrail's mapping, block or flow, in the mapping's own layout.
 */
export function setThresholds(
  file: string,
  text: string,
  thresholds: Partial<Record<GuardrailId, number>>,
): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`${file}: invalid YAML: ${doc.errors[0]?.message}`);
  const edits: Edit[] = [];
  for (const [id, value] of Object.entries(thresholds)) {
    const edit = thresholdEdit(text, doc.getIn(["guardrails"], true), id, String(value));
    if (!edit)
      throw new UsageError(`${file}: cannot place guardrails.${id}.threshold; set it by hand to ${value}`);
    edits.push(edit);
  }
  // From the end, so earlier offsets still hold.
  let out = text;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.end);
  return out;
}

function thresholdEdit(text: string, guardrails: unknown, id: string, value: string): Edit | undefined {
  if (!isMap(guardrails) || guardrails.flow) return undefined;
  const entry = guardrails.get(id, true) as Node | undefined;
  if (entry === undefined) {
    // No entry for the guardrail: a new one after the last, indented as its siblings are.
    const indent = columnOf(text, firstKeyStart(guardrails));
    return appendLine(text, guardrails, `${indent}${id}:\n${indent}  threshold: ${value}`);
  }
  if (!isMap(entry)) return undefined;
  const current = entry.get("threshold", true);
  if (isScalar(current) && current.range) return { at: current.range[0], end: current.range[1], text: value };
  if (current !== undefined) return undefined;
  if (entry.flow) {
    const [start, end] = entry.range ?? [0, 0];
    const close = text.lastIndexOf("}", end - 1);
    if (close < start) return undefined;
    let at = close;
    while (at > start && text[at - 1] === " ") at--;
    const empty = entry.items.length === 0;
    return { at, end: close, text: `${empty ? " " : ", "}threshold: ${value} ` };
  }
  return appendLine(text, entry, `${columnOf(text, firstKeyStart(entry))}threshold: ${value}`);
}

/** The start of a block mapping's first key. */
function firstKeyStart(map: YAMLMap): number {
  const key = map.items[0]?.key as Node | undefined;
  return key?.range?.[0] ?? map.range?.[0] ?? 0;
}

/** The indentation of the line holding `offset`, up to it. */
function columnOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return " ".repeat(offset - lineStart);
}

/** A new line after the block mapping's last item (and any comment on that item's last line). */
function appendLine(text: string, map: YAMLMap, line: string): Edit | undefined {
  const last = map.items.at(-1);
  const node = (last?.value ?? last?.key) as Node | undefined;
  let end = node?.range?.[1];
  if (end === undefined) return undefined;
  // A block value's range takes in the line break after it: back to the last character written.
  while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
  const newline = text.indexOf("\n", end);
  const at = newline < 0 ? text.length : newline;
  return { at, end: at, text: `\n${line}` };
}

/** A minimal unified-style line diff (LCS; profiles are small): `-` removed, `+` added, `…` skipped. */
export function lineDiff(before: string, after: string, context = 1): string {
  const a = before.split("\n");
  const b = after.split("\n");
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as Uint32Array;
      row[j] =
        a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const ops: { kind: " " | "-" | "+"; text: string; line: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", text: a[i++] as string, line: j++ + 1 });
    else if (i < n && (j === m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      ops.push({ kind: "-", text: a[i++] as string, line: j + 1 });
    } else ops.push({ kind: "+", text: b[j] as string, line: ++j });
  }
  const near = ops.map((_, k) =>
    ops.slice(Math.max(0, k - context), k + context + 1).some((o) => o.kind !== " "),
  );
  const out: string[] = [];
  ops.forEach((op, k) => {
    if (!near[k]) {
      if (out.at(-1) !== "…") out.push("…");
      return;
    }
    out.push(`${op.kind}${op.text}`);
  });
  while (out[0] === "…") out.shift();
  while (out.at(-1) === "…") out.pop();
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
