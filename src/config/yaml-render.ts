import { Document, isCollection, isScalar, visit } from "yaml";

// No folding of long lines, and `[a, b]` rather than `[ a, b ]`: the style of the profiles in docs/configuration.md.
const OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Past this column a new list of words is written one item a line. */
const FLOW_WIDTH = 100;

/** One value in flow style, on one line: `0.5`, `[a, b]`, `{name: x, pattern: y}`, `"two\nlines"`. */
export function renderFlow(value: unknown): string {
  const doc = new Document(value);
  if (isCollection(doc.contents)) doc.contents.flow = true;
  else if (isScalar(doc.contents) && typeof value === "string" && value.includes("\n")) {
    doc.contents.type = "QUOTE_DOUBLE";
  }
  return doc.toString(OPTIONS).trimEnd();
}

const isPlain = (v: unknown) => v === null || typeof v !== "object";

/**
 * `key: value` for a block mapping whose keys sit at `indent`, lines after the first indented to
 * match. `style` keeps an existing list's style; a new list of short words goes on one line.
 */
export function renderBlockValue(
  key: string,
  value: unknown,
  indent: string,
  style: "flow" | "block" | undefined,
): string {
  return `${indent}${key}:${renderAfterColon(value, indent, style)}`;
}

/** What follows `key:`: ` 0.5`, ` [a, b]`, ` |` and its lines, or the block lines of a list or mapping. */
export function renderAfterColon(
  value: unknown,
  indent: string,
  style: "flow" | "block" | undefined,
): string {
  if (Array.isArray(value)) {
    const flow = ` ${renderFlow(value)}`;
    if (value.length === 0 || style === "flow") return flow;
    if (style === undefined && value.every(isPlain) && indent.length + flow.length <= FLOW_WIDTH) return flow;
  } else if (value !== null && typeof value === "object" && Object.keys(value).length === 0) return " {}";
  const doc = new Document({ k: value });
  // A new mapping's lists of words go on one line, as docs/configuration.md's profiles write them.
  if (style !== "block")
    visit(doc, {
      Seq(_, seq) {
        const flow = renderFlow(seq.toJSON());
        if (seq.items.every(isScalar) && indent.length + flow.length <= FLOW_WIDTH - 8) seq.flow = true;
      },
    });
  return doc.toString(OPTIONS).slice(2).trimEnd().replaceAll("\n", `\n${indent}`);
}
