import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ModelUnavailableError } from "../../../models/model-error.js";
import { MODERATION_CATEGORIES } from "./categories.js";
import { FEATURE_VERSION } from "./features.js";

/**
 * models/content-moderation/{model.json, weights.bin.gz}: a JSON header and int16 weight tables, each with
 * its own scale, concatenated in the order the header lists them. Written by
 * training/content-moderation/train.ts, read here.
 */
export const DEFAULT_MODEL_DIR = fileURLToPath(
  new URL("../../../../models/content-moderation/", import.meta.url),
);
export const REBUILD = "run `npm run train:content-moderation`";

/** Platt scaling: p = σ(a·z + b). */
export type Platt = readonly [a: number, b: number];

export interface ModerationHeader {
  readonly format: 1;
  readonly featureVersion: number;
  readonly categories: readonly string[];
  readonly windowWords: number;
  readonly binaryBits: number;
  readonly categoryBits: number;
  readonly binaryBias: number;
  readonly categoryBias: readonly number[];
  /** The USE-lite head, averaged with the n-gram one when the caller passes embeddings. */
  readonly embedding: { dim: number; binaryBias: number; categoryBias: readonly number[] } | null;
  readonly calibration: { readonly ngram: Platt; readonly combined: Platt | null };
  readonly threshold: number;
  readonly tables: readonly { name: TableName; length: number; scale: number }[];
}

export type TableName = "binary" | "category" | "embBinary" | "embCategory";
export type Tables = Partial<Record<TableName, Float32Array>>;

export interface ModerationWeights {
  readonly header: ModerationHeader;
  readonly tables: Tables;
}

async function read(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (cause) {
    throw new ModelUnavailableError(file, REBUILD, cause);
  }
}

export async function readWeights(dir: string = DEFAULT_MODEL_DIR): Promise<ModerationWeights> {
  const headerFile = join(dir, "model.json");
  const weightsFile = join(dir, "weights.bin.gz");
  const header = JSON.parse((await read(headerFile)).toString("utf8")) as ModerationHeader;
  const expected = MODERATION_CATEGORIES.join();
  if (
    header.format !== 1 ||
    header.featureVersion !== FEATURE_VERSION ||
    header.categories.join() !== expected
  ) {
    throw new ModelUnavailableError(headerFile, `built for another version of the featuriser; ${REBUILD}`);
  }
  const bytes = gunzipSync(await read(weightsFile));
  const total = header.tables.reduce((n, t) => n + t.length, 0);
  if (bytes.length !== total * 2) throw new ModelUnavailableError(weightsFile, `truncated; ${REBUILD}`);
  // Copy into an aligned buffer: a Buffer from the pool may start at an odd offset.
  const q = new Int16Array(total);
  new Uint8Array(q.buffer).set(bytes);
  const tables: Tables = {};
  let offset = 0;
  for (const t of header.tables) {
    const table = new Float32Array(t.length);
    for (let i = 0; i < t.length; i++) table[i] = (q[offset + i] as number) * t.scale;
    tables[t.name] = table;
    offset += t.length;
  }
  return { header, tables };
}

/** Quantises float tables to int16 (the training script's half of the format). */
export function encodeTables(tables: readonly [TableName, Float64Array | Float32Array][]): {
  specs: ModerationHeader["tables"];
  bytes: Buffer;
} {
  const total = tables.reduce((n, [, t]) => n + t.length, 0);
  const q = new Int16Array(total);
  const specs: { name: TableName; length: number; scale: number }[] = [];
  let offset = 0;
  for (const [name, t] of tables) {
    let max = 0;
    for (const w of t) max = Math.max(max, Math.abs(w));
    const scale = max / 32767 || 1;
    for (let i = 0; i < t.length; i++) q[offset + i] = Math.round((t[i] as number) / scale);
    specs.push({ name, length: t.length, scale });
    offset += t.length;
  }
  return { specs, bytes: Buffer.from(q.buffer) };
}
