/** Escaping and number formatting for the HTML report: every string from the data goes through `esc`. */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for element content and quoted attribute values. */
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

export { num, pct } from "../figures.js";

/** Integers with thin-space thousands separators, independent of the machine's locale. */
export const int = (v: number): string => String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");

/** A coordinate for SVG output: two decimals are plenty at these sizes. */
export const px = (v: number): string => String(Math.round(v * 100) / 100);

/** A `<table>` from already-escaped cells; `numeric` columns are right-aligned. */
export function htmlTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: number[] = [],
) {
  const align = (i: number) => (numeric.includes(i) ? ' class="n"' : "");
  const th = head.map((h, i) => `<th${align(i)}>${h}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${align(i)}>${c}</td>`).join("")}</tr>`).join("\n");
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
