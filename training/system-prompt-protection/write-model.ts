/** Writes models/system-prompt-protection/: model.json plus the two int16, gzipped n-gram weight tables. */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type {
  HashedModel,
  PartsModel,
} from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { encodeHashed } from "../../src/guardrails/system-prompt-protection/detector/model-file.js";

export interface TrainedLeakModel {
  threshold: number;
  seed: number;
  encoder: boolean;
  disclosure: HashedModel;
  extraction: HashedModel;
  combiners: Record<string, PartsModel>;
}

export function writeLeakModel(dir: string, model: TrainedLeakModel): void {
  mkdirSync(dir, { recursive: true });
  const table = (m: HashedModel, file: string) => {
    const { header, bytes } = encodeHashed(m.bits, m.bias, Float64Array.from(m.weights), file);
    writeFileSync(resolve(dir, file), gzipSync(bytes, { level: 9 }));
    return header;
  };
  const header = {
    format: 1,
    threshold: model.threshold,
    seed: model.seed,
    trained: new Date().toISOString().slice(0, 10),
    encoder: model.encoder,
    disclosure: table(model.disclosure, "disclosure.bin.gz"),
    extraction: table(model.extraction, "extraction.bin.gz"),
    combiners: model.combiners,
  };
  writeFileSync(resolve(dir, "model.json"), `${JSON.stringify(header, null, 2)}\n`);
}
