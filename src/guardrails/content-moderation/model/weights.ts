import { fileURLToPath } from "node:url";
import { dequantise, modelFiles } from "../../../models/weight-file.js";
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
export const REBUILD = "npm run train:content-moderation";

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

export async function readWeights(dir: string = DEFAULT_MODEL_DIR): Promise<ModerationWeights> {
  const files = modelFiles(dir, REBUILD);
  const header = files.header<ModerationHeader>();
  const expected = MODERATION_CATEGORIES.join();
  if (
    header.format !== 1 ||
    header.featureVersion !== FEATURE_VERSION ||
    header.categories.join() !== expected
  ) {
    throw files.unusable("model.json", "built for another version of the featuriser");
  }
  const q = files.int16(
    "weights.bin.gz",
    header.tables.reduce((n, t) => n + t.length, 0),
  );
  const tables: Tables = {};
  let offset = 0;
  for (const t of header.tables) {
    tables[t.name] = dequantise(q, t.scale, offset, t.length);
    offset += t.length;
  }
  return { header, tables };
}
