import { dequantise, type ModelFiles, modelFiles } from "../../../models/weight-file.js";
import type { HashedModel, PartsModel } from "./linear.js";

/**
 * The bundled leak model: two hashed n-gram classifiers (is this response disclosing its
 * instructions; is this prompt trying to extract them) and one combiner per configuration
 * (with or without a system prompt, the encoder, the originating prompt). Weights are int16 with
 * one scale each, gzipped; everything else is JSON.
 */
export interface LeakModel {
  /** The bundled threshold with a system prompt configured. */
  readonly threshold: number;
  /** The bundled threshold without one (the `""` and `P` combiners), when chosen apart. */
  readonly noSystemPromptThreshold?: number;
  readonly disclosure: HashedModel;
  readonly extraction: HashedModel;
  readonly combiners: Readonly<Record<string, PartsModel>>;
}

export interface HashedHeader {
  bits: number;
  bias: number;
  scale: number;
  file: string;
}

export interface ModelHeader {
  format: 1;
  threshold: number;
  noSystemPromptThreshold?: number;
  disclosure: HashedHeader;
  extraction: HashedHeader;
  combiners: Record<string, PartsModel>;
  [extra: string]: unknown;
}

export const DEFAULT_LEAK_MODEL_DIR = new URL(
  "../../../../models/system-prompt-protection/",
  import.meta.url,
);
const REBUILD = "npm run train:system-prompt-protection";

function readHashed(files: ModelFiles, h: HashedHeader): HashedModel {
  return { bits: h.bits, bias: h.bias, weights: dequantise(files.int16(h.file, 1 << h.bits), h.scale) };
}

const loaded = new Map<string, LeakModel>();

/** Reads the model once per directory; every detector in the process shares it. */
export function loadLeakModel(dir: URL = DEFAULT_LEAK_MODEL_DIR): LeakModel {
  const cached = loaded.get(dir.href);
  if (cached) return cached;
  const files = modelFiles(dir, REBUILD);
  const header = files.header<ModelHeader>();
  if (header.format !== 1) throw files.unusable("model.json", "unsupported format");
  const model: LeakModel = {
    threshold: header.threshold,
    ...(typeof header.noSystemPromptThreshold === "number"
      ? { noSystemPromptThreshold: header.noSystemPromptThreshold }
      : {}),
    disclosure: readHashed(files, header.disclosure),
    extraction: readHashed(files, header.extraction),
    combiners: header.combiners,
  };
  loaded.set(dir.href, model);
  return model;
}
