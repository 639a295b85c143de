import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readDelimited } from "./delimited.js";
import { readJsonl } from "./jsonl.js";
import type { TableFormat, TableItem } from "./types.js";

export type { TableFormat, TableItem } from "./types.js";

const BY_EXTENSION: Record<string, TableFormat> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".tab": "tsv",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
};

export const FORMATS: readonly TableFormat[] = ["csv", "tsv", "jsonl"];

export function formatFromExtension(file: string): TableFormat | undefined {
  return BY_EXTENSION[extname(file).toLowerCase()];
}

/** Guesses from the first line: `{` is JSON Lines, a tab without a comma is TSV, else CSV. */
export async function sniffFormat(file: string): Promise<TableFormat> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const first = (
      buffer
        .subarray(0, bytesRead)
        .toString("utf8")
        .replace(/^\uFEFF/, "")
        .split("\n")[0] ?? ""
    ).trim();
    if (first.startsWith("{")) return "jsonl";
    return first.includes("\t") && !first.includes(",") ? "tsv" : "csv";
  } finally {
    await handle.close();
  }
}

/** Streams a file's rows; call again for a second pass. */
export function readTable(file: string, format: TableFormat): AsyncGenerator<TableItem> {
  return readStream(createReadStream(file), format);
}

/** Streams rows from `input`, and closes it however the reading ends (a consumer that stops early too). */
export async function* readStream(input: Readable, format: TableFormat): AsyncGenerator<TableItem> {
  try {
    yield* format === "jsonl" ? readJsonl(input) : readDelimited(input, format === "tsv" ? "\t" : ",");
  } finally {
    // Piped into csv-parse, the file would stay open after the parser is gone: one descriptor per
    // pass that a validation error cut short.
    input.destroy();
  }
}

/**
 * Copies stdin to a temporary file so it can be read twice (validate, then run) in bounded memory.
 * Returns the path and a cleanup function.
 */
export async function spoolToFile(input: Readable): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-batch-"));
  const file = join(dir, "stdin");
  await pipeline(input, createWriteStream(file));
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
