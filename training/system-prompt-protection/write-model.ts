/** Writes models/system-prompt-protection/: model.json plus the two int16, gzipped n-gram weight tables. */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type {
  HashedModel,
  PartsModel,
} from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import type { HashedHeader } from "../../src/guardrails/system-prompt-protection/detector/model-file.js";
import { quantise, writeHeader, writeTable } from "../../src/models/weight-file.js";
import type { Thresholds } from "./combiners.js";

export interface TrainedLeakModel {
  thresholds: Thresholds;
  seed: number;
  encoder: boolean;
  disclosure: HashedModel;
  extraction: HashedModel;
  combiners: Record<string, PartsModel>;
}

export function writeLeakModel(dir: string, model: TrainedLeakModel): void {
  mkdirSync(dir, { recursive: true });
  const table = (m: HashedModel, file: string): HashedHeader => {
    const { scale, values } = quantise(m.weights);
    writeTable(resolve(dir, file), values);
    return { bits: m.bits, bias: m.bias, scale, file };
  };
  const header = {
    format: 1,
    threshold: model.thresholds.threshold,
    ...(model.thresholds.noSystemPrompt === undefined
      ? {}
      : { noSystemPromptThreshold: model.thresholds.noSystemPrompt }),
    seed: model.seed,
    trained: new Date().toISOString().slice(0, 10),
    encoder: model.encoder,
    disclosure: table(model.disclosure, "disclosure.bin.gz"),
    extraction: table(model.extraction, "extraction.bin.gz"),
    combiners: model.combiners,
  };
  writeHeader(resolve(dir, "model.json"), header);
}
