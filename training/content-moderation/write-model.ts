/** Writes models/content-moderation/{model.json, weights.bin.gz}: no timestamps, so reruns are byte-identical. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { FEATURE_VERSION } from "../../src/guardrails/content-moderation/model/features.js";
import type { ScoringParams } from "../../src/guardrails/content-moderation/model/raw-score.js";
import type {
  ModerationHeader,
  Platt,
  TableName,
} from "../../src/guardrails/content-moderation/model/weights.js";
import { quantiseTables, writeHeader, writeTable } from "../../src/models/weight-file.js";

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
  const { scales, values } = quantiseTables(tables.map(([, t]) => t));
  const specs = tables.map(([name, t], i) => ({ name, length: t.length, scale: scales[i] as number }));
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
  writeHeader(join(dir, "model.json"), header);
  return { bytes: writeTable(join(dir, "weights.bin.gz"), values) };
}
