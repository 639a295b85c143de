/**
 * A check's `checks` entries in words, shared by the terminal view (`guardrail check`) and the
 * dashboard's Try it: what each guardrail found, and whether its entry itself says it flagged.
 */
type Entry = Readonly<Record<string, unknown>>;

const score = (value: unknown) => (typeof value === "number" ? value.toFixed(3) : undefined);

/** Items joined with commas; an item holding a space or comma is quoted so the list stays readable. */
export function listItems(items: readonly unknown[]): string {
  return items.map((item) => (/[\s,]/.test(String(item)) ? JSON.stringify(item) : String(item))).join(", ");
}

/** Whether the entry itself says it flagged; undefined for entries that carry only a score. */
export function entryFlagged(entry: Entry): boolean | undefined {
  if (typeof entry.detected === "boolean") return entry.detected;
  if (typeof entry.unsafe === "boolean") return entry.unsafe;
  if (typeof entry.score === "number" && typeof entry.threshold === "number")
    return entry.score >= entry.threshold;
  return undefined;
}

/** What one guardrail found: matches, entity types, scores, categories ("" when nothing). */
export function describeEntry(entry: Entry): string {
  const parts: string[] = [];
  if (Array.isArray(entry.matched) && entry.matched.length > 0)
    parts.push(`matched: ${listItems(entry.matched)}`);
  if (Array.isArray(entry.entities) && entry.entities.length > 0)
    parts.push(`entities: ${listItems(entry.entities)}`);
  if (typeof entry.result === "string") parts.push(entry.result);
  if (typeof entry.category === "string" && entry.category) parts.push(entry.category);
  const s = score(entry.score);
  if (s !== undefined) {
    const t = score(entry.threshold);
    parts.push(t === undefined ? `score ${s}` : `score ${s} (threshold ${t})`);
  }
  return parts.join("; ");
}
