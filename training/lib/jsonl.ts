/**
 * Reading the training data's text formats: JSON, JSON Lines (https://jsonlines.org: one JSON value
 * a line; blank lines are skipped) and plain lines. A `.gz` path is gunzipped first. Rows are typed
 * by the caller, unchecked: the files are fixed inputs, and a changed file fails in the trainer.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export function readText(path: string): string {
  return path.endsWith(".gz") ? gunzipSync(readFileSync(path)).toString("utf8") : readFileSync(path, "utf8");
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readText(path)) as T;
}

/** The non-blank lines (a trailing `\r` stays; JSON.parse ignores it). */
export function readLines(path: string): string[] {
  return readText(path)
    .split("\n")
    .filter((line) => line.trim());
}

export function readJsonl<T = unknown>(path: string): T[] {
  return readLines(path).map((line) => JSON.parse(line) as T);
}
