import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  type YAMLMap,
} from "yaml";
import { renderAfterColon, renderBlockValue, renderFlow } from "./yaml-render.js";

/** One change to a YAML document: `value` undefined removes the key. */
export interface YamlEdit {
  readonly path: readonly string[];
  readonly value: unknown;
}

interface Splice {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/** A splice, `null` when the document already says so, `undefined` when it cannot be placed. */
type Planned = Splice | null | undefined;

/**
 * Applies one edit by splicing the text, so that the file stays byte for byte as it was outside
 * the value written: re-printing the document would re-wrap long lines, write `[a]` as `[ a ]` and
 * drop blank lines. Returns undefined when the edit cannot be placed without re-printing (a key
 * to add inside a flow mapping that itself sits in a flow collection): the caller says so.
 */
export function applyYamlEdit(text: string, edit: YamlEdit): string | undefined {
  const doc = parseDocument(text);
  const splice = edit.value === undefined ? deleteSplice(text, doc, edit.path) : setSplice(text, doc, edit);
  if (splice === null) return text;
  if (splice === undefined) return undefined;
  // Written lines end as the file's do.
  const written = text.includes("\r\n") ? splice.text.replace(/\r?\n/g, "\r\n") : splice.text;
  return text.slice(0, splice.at) + written + text.slice(splice.end);
}

const findPair = (map: YAMLMap, key: string) =>
  map.items.find((p) => isScalar(p.key) && String(p.key.value) === key) as
    | Pair<Node, Node | null>
    | undefined;

/** `{ a: { b: value } }` for the keys still missing below an existing mapping. */
function nest(keys: readonly string[], value: unknown): unknown {
  return keys.reduceRight((inner, key) => ({ [key]: inner }), value);
}

function setSplice(text: string, doc: Document, edit: YamlEdit): Planned {
  let map: unknown = doc.contents;
  let inFlow = false;
  if (map === null || (isScalar(map) && map.value === null)) {
    // An empty file: the whole edit becomes its first lines.
    const block = renderBlockValue(
      edit.path[0] as string,
      nest(edit.path.slice(1), edit.value),
      "",
      undefined,
    );
    return {
      at: text.length,
      end: text.length,
      text: `${text && !text.endsWith("\n") ? "\n" : ""}${block}\n`,
    };
  }
  for (const [i, key] of edit.path.entries()) {
    if (!isMap(map)) return undefined;
    const pair = findPair(map, key);
    const rest = edit.path.slice(i + 1);
    if (pair === undefined) return insertSplice(text, map, key, nest(rest, edit.value), inFlow);
    const value = pair.value;
    const emptyValue = value === null || (isScalar(value) && value.value === null && !value.source);
    if (rest.length === 0 || emptyValue)
      return replaceSplice(text, pair, nest(rest, edit.value), inFlow || map.flow === true);
    inFlow ||= map.flow === true;
    map = value;
  }
  return undefined;
}

/** A new `key: value` in `map`, after its last item, in the mapping's own layout. */
function insertSplice(
  text: string,
  map: YAMLMap,
  key: string,
  value: unknown,
  inFlow: boolean,
): Splice | undefined {
  if (map.flow) {
    if (inFlow) return undefined;
    const [start, end] = map.range ?? [0, 0];
    const close = text.lastIndexOf("}", end - 1);
    if (close < start) return undefined;
    let at = close;
    while (at > start && text[at - 1] === " ") at--;
    const entry = renderFlow({ [key]: value }).slice(1, -1);
    return { at, end: close, text: `${map.items.length === 0 ? " " : ", "}${entry} ` };
  }
  const last = map.items.at(-1);
  let end = ((last?.value ?? last?.key) as Node | undefined)?.range?.[1];
  if (end === undefined) return undefined;
  // A block value's range takes in the line break after it: back to the last character written.
  while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
  const newline = text.indexOf("\n", end);
  const at = newline < 0 ? text.length : text[newline - 1] === "\r" ? newline - 1 : newline;
  const indent = columnOf(text, firstKeyStart(map));
  return { at, end: at, text: `\n${renderBlockValue(key, value, indent, undefined)}` };
}

/** The pair's value replaced, keeping the old value's style (flow stays flow, block stays block). */
function replaceSplice(
  text: string,
  pair: Pair<Node, Node | null>,
  value: unknown,
  inFlow: boolean,
): Planned {
  const old = pair.value;
  const keyEnd = pair.key?.range?.[1];
  if (keyEnd === undefined) return undefined;
  if (old && JSON.stringify(old.toJSON()) === JSON.stringify(value)) return null;
  const colon = text.indexOf(":", keyEnd);
  const keyColumn = columnOf(text, pair.key?.range?.[0] ?? keyEnd);
  // `key:` with nothing after it: the value goes after the colon, never against it.
  if (old === null || (isScalar(old) && old.value === null && !old.source)) {
    const after = inFlow ? ` ${renderFlow(value)}` : renderAfterColon(value, keyColumn, undefined);
    return { at: colon + 1, end: colon + 1, text: after };
  }
  const [start, valueEnd] = old.range ?? [keyEnd, keyEnd];
  if (inFlow) return { at: start, end: valueEnd, text: renderFlow(value) };
  const oldIsInline = isScalar(old)
    ? old.type !== "BLOCK_LITERAL" && old.type !== "BLOCK_FOLDED"
    : (isSeq(old) || isMap(old)) && old.flow === true;
  const multiline = typeof value === "string" && value.includes("\n");
  const inline = !(value !== null && typeof value === "object") && !multiline;
  if (oldIsInline && inline) return { at: start, end: valueEnd, text: renderFlow(value) };
  if (isSeq(old) && old.flow && Array.isArray(value))
    return { at: start, end: valueEnd, text: renderFlow(value) };
  // From just after the key's colon to the old value's last character, rewritten whole.
  let end = valueEnd;
  while (end > colon && /\s/.test(text[end - 1] as string)) end--;
  const block = (isSeq(old) || isMap(old)) && !old.flow;
  let after = renderAfterColon(value, keyColumn, isSeq(old) ? (old.flow ? "flow" : "block") : undefined);
  if (block && after.startsWith("\n")) {
    // A block list keeps its own indentation (`- a` under the key, or indented past it).
    const from = `\n${keyColumn}  `;
    const to = `\n${columnOf(text, start)}`;
    if (
      after
        .split("\n")
        .slice(1)
        .every((line) => `\n${line}`.startsWith(from))
    )
      after = after.replaceAll(from, to);
  }
  return { at: colon + 1, end: Math.max(end, colon + 1), text: after };
}

/** Removes `key: value`; a block mapping's last item leaves `{}` behind, so the document still loads. */
function deleteSplice(text: string, doc: Document, path: readonly string[]): Planned {
  let map: unknown = doc.contents;
  for (const key of path.slice(0, -1)) {
    if (!isMap(map)) return null;
    map = findPair(map, key)?.value;
  }
  if (!isMap(map)) return null;
  const pair = findPair(map, path.at(-1) as string);
  if (pair === undefined) return null;
  const keyStart = pair.key?.range?.[0] ?? 0;
  let end = (pair.value ?? pair.key)?.range?.[1] ?? keyStart;
  if (map.flow) {
    const before = text.lastIndexOf(",", keyStart);
    const after = text.indexOf(",", end);
    const first = map.items[0] === pair;
    if (first && map.items.length > 1) return { at: keyStart, end: skipSpaces(text, after + 1), text: "" };
    if (first) return { at: keyStart, end, text: "" };
    return { at: before, end, text: "" };
  }
  if (map.items.length === 1 && path.length > 1)
    return setSplice(text, doc, { path: path.slice(0, -1), value: {} });
  while (end > keyStart && /\s/.test(text[end - 1] as string)) end--;
  const lineStart = text.lastIndexOf("\n", keyStart - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  return { at: lineStart, end: lineEnd < 0 ? text.length : lineEnd + 1, text: "" };
}

const skipSpaces = (text: string, at: number) => {
  while (text[at] === " ") at++;
  return at;
};

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
