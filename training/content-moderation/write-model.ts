/** Writes models/content-moderation/{model.json, weights.bin.gz}: no timestamps, so reruns are byte-identical. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { FEATURE_VERSION } from "../../src/guardrails/content-moderation/model/features.js";
import type { ScoringParams } from "../../src/guardrails/content-moderation/model/raw-score.js";
import {
  encodeTables,
  type ModerationHeader,
  type Platt,
  type TableName,
} from "../../src/guardrails/content-moderation/model/weights.js";

export function writeModel(
  dir: string,
  p: ScoringParams,
  calibration: { ngram: Platt; combined: Platt | null },
  threshold: number,
): { bytes: number } {
  const tables: [TableName, ArrayLike<number>][] = [
    ["binary", p.binary],
    ["category", p.category],
  ];
  if (p.embedding) tables.push(["embBinary", p.embedding.binary], ["embCategory", p.embedding.category]);
  const { specs, bytes } = encodeTables(tables.map(([n, t]) => [n, Float64Array.from(t)]));
  const header: ModerationHeader = {
    format: 1,
    featureVersion: FEATURE_VERSION,
    categories: [...MODERATION_CATEGORIES],
    windowWords: p.windowWords,
    binaryBits: p.binaryBits,
    categoryBits: p.categoryBits,
    binaryBias: p.binaryBias,
    categoryBias: Array.from(p.categoryBias),
    embedding: p.embedding
      ? {
          dim: p.embedding.binary.length,
          binaryBias: p.embedding.binaryBias,
          categoryBias: Array.from(p.embedding.categoryBias),
        }
      : null,
    calibration,
    threshold,
    tables: specs,
  };
  mkdirSync(dir, { recursive: true });
  const gz = gzipSync(bytes, { level: 9 });
  writeFileSync(join(dir, "model.json"), `${JSON.stringify(header, null, 2)}\n`);
  writeFileSync(join(dir, "weights.bin.gz"), gz);
  return { bytes: gz.length };
}
