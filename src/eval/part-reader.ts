import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import { UsageError } from "../errors.js";
import {
  PART_FORMAT,
  PART_KEY,
  type PartHeader,
  type PartTrailer,
  partHeaderSchema,
  partTrailerSchema,
} from "./part-file.js";
import type { EvalRow } from "./rows.js";
import type { Evaluated } from "./runner.js";
import type { RowResult } from "./summary.js";

/** A part's header and trailer, read before any row so that a merge refuses in a second. */
export interface PartEnds {
  /** As given, for messages. */
  readonly file: string;
  readonly path: string;
  readonly header: PartHeader;
  readonly trailer: PartTrailer | undefined;
}

const lines = (file: string) => createInterface({ input: createReadStream(file), crlfDelay: Infinity });

const parse = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text ?? "");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

async function firstLine(file: string): Promise<string | undefined> {
  const reader = lines(file);
  try {
    for await (const line of reader) return line;
    return undefined;
  } catch (error) {
    throw new UsageError(`${file}: cannot read: ${(error as Error).message}`);
  } finally {
    reader.close();
  }
}

/** The last line, read from the end: a trailer is small, the rows before it may be gigabytes. */
async function lastLine(file: string): Promise<string | undefined> {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString("utf8").trimEnd().split("\n").at(-1);
  } finally {
    await handle.close();
  }
}

export async function readPartEnds(path: string, file = path): Promise<PartEnds> {
  const header = parse(await firstLine(path));
  if (header?.[PART_KEY] !== "header") {
    throw new UsageError(
      `${file}: not a part file (its first line is not a guardrail part header); write parts with batch FILE --shard i/n --out part-i.jsonl`,
    );
  }
  if (header.format !== PART_FORMAT) {
    throw new UsageError(
      `${file}: part format ${String(header.format)}, this guardrail reads format ${PART_FORMAT}`,
    );
  }
  const parsed = partHeaderSchema.safeParse(header);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${file}: header: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  // No trailer (or a broken one) is what a shard that never finished leaves: checkParts says so.
  const trailer = partTrailerSchema.safeParse(parse(await lastLine(path)));
  return { file, path, header: parsed.data, trailer: trailer.success ? trailer.data : undefined };
}

/** A row line back into the data row (its text, for the worst-mistakes lists) and its result. */
function rowOf(record: Record<string, unknown>): { row: EvalRow; result: RowResult } {
  const { text, ...result } = record as unknown as RowResult & { text: string };
  const { row, line, id, label, category } = result;
  return { row: { row, line, id, text, label, category }, result };
}

/**
 * The rows of a part in batches, checked as they stream: in file order, within the data set, and
 * as many as the header's range and the trailer say. Memory holds one batch.
 */
export async function* partRows(part: PartEnds, size = 512): AsyncGenerator<Evaluated> {
  const expected = part.header.range.to - part.header.range.from;
  let count = 0;
  let previous = 0;
  let batch: Evaluated = { rows: [], results: [] };
  const bad = (why: string) =>
    new UsageError(`${part.file}: ${why}; the part is damaged: score its shard again`);
  let index = 0;
  for await (const line of lines(part.path)) {
    index++;
    if (index === 1 || line.trim() === "") continue;
    const record = parse(line);
    if (record === undefined) throw bad(`line ${index} is not JSON`);
    if (PART_KEY in record) continue;
    const { row, result } = rowOf(record);
    if (!(typeof row.row === "number" && row.row > previous)) throw bad(`line ${index}: rows out of order`);
    previous = row.row;
    count++;
    (batch.rows as EvalRow[]).push(row);
    (batch.results as RowResult[]).push(result);
    if (batch.rows.length === size) {
      yield batch;
      batch = { rows: [], results: [] };
    }
  }
  if (count !== expected) throw bad(`${count} rows where its shard has ${expected}`);
  if (batch.rows.length > 0) yield batch;
}
