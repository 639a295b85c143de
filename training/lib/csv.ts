import { readFileSync } from "node:fs";
import { parseCsvObjects } from "../../src/text/csv.js";

/** Header-keyed rows of a CSV, throwing on a row of the wrong width: the project's one CSV module. */
export const parseCsv = parseCsvObjects;

/** `parseCsv` of a file. */
export function readCsv(path: string): Record<string, string>[] {
  return parseCsv(readFileSync(path, "utf8"));
}
