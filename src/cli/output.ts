import { isAbsolute, relative } from "node:path";

/** Plain-text output helpers: colour only when the Io allows it, tables padded to their widest cell. */

export interface Paint {
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

export function paint(color: boolean): Paint {
  if (!color) return { red: plain, green: plain, yellow: plain, bold: plain, dim: plain };
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what is measured out
const visibleLength = (cell: string) => cell.replace(/\u001b\[\d+m/g, "").length;

/** Left-aligned columns separated by two spaces, measured without escape codes. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visibleLength(cell)),
        )
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}

/** Items joined with commas, quoted when they hold a space or comma (shared with the dashboard). */
export { listItems as list } from "../engine/describe-check.js";

/** A path relative to the working directory when it lies inside it, else absolute. */
export function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}
