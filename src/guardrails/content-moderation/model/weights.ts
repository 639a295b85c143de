import { fileURLToPath } from "node:url";
import { dequantise, modelFiles } from "../../../models/weight-file.js";
import { MODERATION_CATEGORIES } from "./categories.js";
import { FEATURE_VERSION } from "./features.js";
import type { ModerationSignal } from "./raw-score.js";

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

/** One signal's calibration: of its n-gram logit, and of the mean of its n-gram and USE-lite logits. */
export interface SignalCalibration {
  readonly ngram: Platt;
  readonly combined: Platt | null;
}

export interface ModerationHeader {
  /**
   * 3: two unsafe signals (toxic text, harmful compliance), each with its own head, calibration
   * and operating point (2 had one threshold on the larger probability).
   */
  readonly format: 3;
  readonly featureVersion: number;
  readonly categories: readonly string[];
  readonly windowWords: number;
  readonly categoryBits: number;
  readonly categoryBias: readonly number[];
  readonly signals: Readonly<
    Record<ModerationSignal, { bits: number; bias: number; embeddingBias: number | null }>
  >;
  /** The USE-lite heads, averaged with the n-gram ones when the caller passes embeddings. */
  readonly embedding: { dim: number; categoryBias: readonly number[] } | null;
  readonly calibration: Readonly<Record<ModerationSignal, SignalCalibration>>;
  /**
   * Each signal's calibrated probability at which the bundled model flags it, chosen by
   * leave-one-source-out (training/content-moderation/loso-sweep.ts).
   */
  readonly operatingPoints: Readonly<Record<ModerationSignal, number>>;
  /** On the verdict's score (see `atOperatingPoint` in model.ts): 0.5 puts every signal at its operating point. */
  readonly threshold: number;
  readonly tables: readonly { name: TableName; length: number; scale: number }[];
}

export type TableName = ModerationSignal | "category" | `emb:${ModerationSignal}` | "embCategory";
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
    header.format !== 3 ||
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
