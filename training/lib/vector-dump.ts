/**
 * The vector dump the Python heads read (training/heads/dump.py `read_vector_dump`): `rows.jsonl`,
 * one JSON object a row with `at` and `n` added, and `vectors.f32`, the rows' vectors back to back
 * (float32, little-endian): a row's vectors are rows `at` … `at + n − 1`.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

export interface DumpRow {
  readonly row: Record<string, unknown>;
  readonly vectors: readonly Float32Array[];
}

/** Writes `rows` to `dir`, in order; returns how many rows and vectors were written. */
export async function writeVectorDump(
  dir: string,
  rows: AsyncIterable<DumpRow> | Iterable<DumpRow>,
): Promise<{ rows: number; vectors: number }> {
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, "vectors.f32"), "w");
  const lines: string[] = [];
  let at = 0;
  try {
    for await (const { row, vectors } of rows) {
      for (const v of vectors) writeSync(fd, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      lines.push(JSON.stringify({ ...row, at, n: vectors.length }));
      at += vectors.length;
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(join(dir, "rows.jsonl"), `${lines.join("\n")}\n`);
  return { rows: lines.length, vectors: at };
}
