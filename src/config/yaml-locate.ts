import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter } from "yaml";

/** Where a field sits in the YAML text it came from: `:line:col`, or "" when it cannot tell. */
export type Locate = (path: readonly PropertyKey[], key?: string) => string;

/** A locator that knows nothing: for values that came from no file. */
export const nowhere: Locate = () => "";

/**
 * Finds the node at a zod issue's path in a parsed document. The value is pointed at when it
 * exists (that is what a message like "must be ≤ 1" is about); a key that should not be there
 * (`key`) at the key itself; a field that is missing at the closest ancestor that is present.
 */
export function yamlLocator(doc: Document, lines: LineCounter): Locate {
  return (path, key) => {
    const steps = key === undefined ? path : [...path, key];
    let node: unknown = doc.contents;
    let offset = isNode(node) ? node.range?.[0] : undefined;
    /** The key of the last field found: where a missing field below it is pointed at. */
    let parentKey = offset;
    for (const [i, step] of steps.entries()) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === step);
        if (!pair) {
          offset = parentKey;
          break;
        }
        const last = i === steps.length - 1;
        const keyStart = isNode(pair.key) ? pair.key.range?.[0] : undefined;
        const valueStart = isNode(pair.value) ? pair.value.range?.[0] : undefined;
        offset = (last && key !== undefined ? keyStart : (valueStart ?? keyStart)) ?? offset;
        parentKey = keyStart ?? parentKey;
        node = pair.value;
      } else if (isSeq(node) && typeof step === "number") {
        node = node.items[step];
        if (!isNode(node)) break;
        offset = node.range?.[0] ?? offset;
      } else break;
    }
    if (offset === undefined) return "";
    const { line, col } = lines.linePos(offset);
    return `:${line}:${col}`;
  };
}
