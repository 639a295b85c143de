/** Quantises the n-gram weights and writes models/llm/: model.json, the weight tables, the card's figures. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InjectionModelHeader } from "../../src/guardrails/llm/classifier.js";
import { type Mlp, mlpValues } from "../../src/guardrails/llm/mlp.js";
import { dequantise, quantise as toInt16, writeHeader, writeTable } from "../../src/models/weight-file.js";
import { spliceCard } from "./report.js";

/** int16 weights with one scale, and the float weights they stand for (what ships, and is measured). */
export function quantise(weights: Float64Array): {
  scale: number;
  quantised: Int16Array;
  shipped: Float32Array;
} {
  const { scale, values } = toInt16(weights);
  return { scale, quantised: values, shipped: dequantise(values, scale) };
}

export interface TrainedModel {
  header: InjectionModelHeader;
  quantised: Int16Array;
  mlp?: Mlp;
}

/** Writes the model's files into `dir` and splices `figures` into its MODEL_CARD.md (made if missing). */
export function writeModel(dir: string, model: TrainedModel, figures: string): void {
  mkdirSync(dir, { recursive: true });
  writeHeader(join(dir, "model.json"), model.header);
  writeTable(join(dir, "weights.bin.gz"), model.quantised);
  if (model.mlp) writeTable(join(dir, "mlp.bin.gz"), mlpValues(model.mlp));
  const card = join(dir, "MODEL_CARD.md");
  const existing = existsSync(card) ? readFileSync(card, "utf8") : "# llm injection classifier\n";
  writeFileSync(card, spliceCard(existing, figures));
}
