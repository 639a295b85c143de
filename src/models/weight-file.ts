import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { ModelUnavailableError } from "./model-error.js";

/**
 * The trained models' one file format: a JSON header (model.json) beside gzipped tables of
 * little-endian numbers, either int16 with one scale per table (weight = int16 × scale) or float32.
 * The training scripts write it with `quantise` and `writeTable`; the guardrails read it with
 * `modelFiles`. Any problem is a ModelUnavailableError naming the file and the command that
 * rebuilds it.
 */
export interface ModelFiles {
  /** The file `name` in the model's folder. */
  path(name: string): string;
  /** A JSON file (model.json by default), parsed; its fields are the caller's to check. */
  header<T>(name?: string): T;
  /** A gzipped int16 table that must hold exactly `length` values. */
  int16(name: string, length: number): Int16Array;
  /** A gzipped float32 table that must hold exactly `length` values. */
  float32(name: string, length: number): Float32Array;
  /** The error for a file that was read but cannot be used (wrong format, built for other code). */
  unusable(name: string, problem: string): ModelUnavailableError;
}

/** The files of the model in `dir`, rebuilt by `rebuild` (e.g. "npm run train:llm"). */
export function modelFiles(dir: string | URL, rebuild: string): ModelFiles {
  const folder = typeof dir === "string" ? dir : fileURLToPath(dir);
  const path = (name: string) => join(folder, name);
  const remedy = `rebuild it with \`${rebuild}\``;
  const unusable = (name: string, problem: string) =>
    new ModelUnavailableError(path(name), `${problem}; ${remedy}`);
  const read = (name: string): Buffer => {
    try {
      return readFileSync(path(name));
    } catch (cause) {
      throw new ModelUnavailableError(path(name), remedy, cause);
    }
  };
  const table = (name: string, length: number, width: 2 | 4): Uint8Array => {
    let bytes: Uint8Array;
    try {
      bytes = gunzipSync(read(name));
    } catch (cause) {
      if (cause instanceof ModelUnavailableError) throw cause;
      throw new ModelUnavailableError(path(name), `not gzip; ${remedy}`, cause);
    }
    if (bytes.length !== length * width) {
      throw unusable(name, `${bytes.length} bytes where model.json says ${length * width}`);
    }
    // A typed array needs an aligned start; gunzip's Buffer may begin at any offset of its memory.
    return bytes.byteOffset % width === 0 ? bytes : new Uint8Array(bytes);
  };
  return {
    path,
    unusable,
    header<T>(name = "model.json"): T {
      try {
        return JSON.parse(read(name).toString("utf8")) as T;
      } catch (cause) {
        if (cause instanceof ModelUnavailableError) throw cause;
        throw new ModelUnavailableError(path(name), `not JSON; ${remedy}`, cause);
      }
    },
    int16(name, length) {
      const bytes = table(name, length, 2);
      return new Int16Array(bytes.buffer, bytes.byteOffset, length);
    },
    float32(name, length) {
      const bytes = table(name, length, 4);
      return new Float32Array(bytes.buffer, bytes.byteOffset, length);
    },
  };
}

/** `length` values of an int16 table from `start`, times its scale. */
export function dequantise(q: Int16Array, scale: number, start = 0, length = q.length - start): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = (q[start + i] as number) * scale;
  return out;
}

/**
 * Float weights as int16 with one scale: the largest magnitude becomes ±32767 (an all-zero table
 * gets scale 1).
 */
export function quantise(weights: ArrayLike<number>): { scale: number; values: Int16Array } {
  let max = 0;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, Math.abs(weights[i] as number));
  const scale = max / 32767 || 1;
  const values = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) values[i] = Math.round((weights[i] as number) / scale);
  return { scale, values };
}

/** Several tables quantised one by one, each with its own scale, concatenated in order. */
export function quantiseTables(tables: readonly ArrayLike<number>[]): {
  scales: number[];
  values: Int16Array;
} {
  const values = new Int16Array(tables.reduce((n, t) => n + t.length, 0));
  const scales: number[] = [];
  let offset = 0;
  for (const t of tables) {
    const q = quantise(t);
    values.set(q.values, offset);
    scales.push(q.scale);
    offset += t.length;
  }
  return { scales, values };
}

/** The bytes `writeTable` writes (gzip level 9), for callers that report the size. */
export function packTable(values: Int16Array | Float32Array): Buffer {
  return gzipSync(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), { level: 9 });
}

/** Writes a table gzipped; returns its size on disk. */
export function writeTable(file: string, values: Int16Array | Float32Array): number {
  const packed = packTable(values);
  writeFileSync(file, packed);
  return packed.length;
}

/** Writes a header as the readers expect it: two-space JSON and a final newline. */
export function writeHeader(file: string, header: unknown): void {
  writeFileSync(file, `${JSON.stringify(header, null, 2)}\n`);
}
