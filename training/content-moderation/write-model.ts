/** Writes models/content-moderation/{model.json, weights.bin.gz}: no timestamps, so reruns are byte-identical. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import { FEATURE_VERSION } from "../../src/guardrails/content-moderation/model/features.js";
import type {
  MODERATION_SIGNALS,
  ScoringParams,
} from "../../src/guardrails/content-moderation/model/raw-score.js";
import type { ModerationHeader, TableName } from "../../src/guardrails/content-moderation/model/weights.js";
import { quantiseTables, writeHeader, writeTable } from "../../src/models/weight-file.js";
import type { Calibrations } from "./calibrate.js";

export function writeModel(
  dir: string,
  p: ScoringParams,
  calibration: Calibrations,
  operatingPoints: Readonly<Record<(typeof MODERATION_SIGNALS)[number], number>>,
): { bytes: number } {
  const { toxic, compliance } = p.signals;
  const tables: [TableName, ArrayLike<number>][] = [
    ["toxic", toxic.weights],
    ["compliance", compliance.weights],
    ["category", p.category],
  ];
  const e = p.embeddingCategory;
  if (e && toxic.embedding && compliance.embedding)
    tables.push(
      ["emb:toxic", toxic.embedding.weights],
      ["emb:compliance", compliance.embedding.weights],
      ["embCategory", e.weights],
    );
  const { scales, values } = quantiseTables(tables.map(([, t]) => t));
  const specs = tables.map(([name, t], i) => ({ name, length: t.length, scale: scales[i] as number }));
  const signal = (s: (typeof MODERATION_SIGNALS)[number]) => {
    const h = p.signals[s];
    return { bits: h.bits, bias: h.bias, embeddingBias: h.embedding?.bias ?? null };
  };
  const header: ModerationHeader = {
    format: 3,
    featureVersion: FEATURE_VERSION,
    categories: [...MODERATION_CATEGORIES],
    windowWords: p.windowWords,
    categoryBits: p.categoryBits,
    categoryBias: Array.from(p.categoryBias),
    signals: { toxic: signal("toxic"), compliance: signal("compliance") },
    embedding:
      e && toxic.embedding ? { dim: toxic.embedding.weights.length, categoryBias: Array.from(e.bias) } : null,
    calibration,
    operatingPoints,
    // On the verdict's scale every signal's operating point is 0.5 (atOperatingPoint).
    threshold: 0.5,
    tables: specs,
  };
  mkdirSync(dir, { recursive: true });
  writeHeader(join(dir, "model.json"), header);
  return { bytes: writeTable(join(dir, "weights.bin.gz"), values) };
}
