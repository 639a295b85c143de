import { modelFiles } from "../../../models/weight-file.js";
import { TAG_COUNT } from "./tags.js";

/**
 * A trained tagger: a dense feature-hashed weight table, `weights[row * TAG_COUNT + tag]`, quantised
 * to int16. Scores are only compared with each other, so the scale never needs applying.
 */
export interface TaggerModel {
  /** Rows in the table, a power of two: a feature hash is masked with `dim - 1`. */
  readonly dim: number;
  readonly weights: Int16Array;
  /**
   * Weights over the encoder's word states (word-states.ts), WORD_STATE_DIM × TAG_COUNT in the
   * table's units; a tagger given states adds their scores to the table's.
   */
  readonly dense?: Float32Array;
}

/** models/pii/tagger/model.json (the training script adds its seed, epochs and date). */
export interface TaggerHeader {
  format: 1;
  dim: number;
  tags: number;
  scale: number;
}

export const DEFAULT_TAGGER_DIR = new URL("../../../../models/pii/tagger/", import.meta.url);

// Weights are immutable, so every detector in the process shares one copy (a few MB) per directory.
const loaded = new Map<string, TaggerModel>();

/** Reads model.json and weights.bin.gz from `dir` the first time it is asked for, then reuses them. */
export function loadTaggerModel(dir: URL = DEFAULT_TAGGER_DIR): TaggerModel {
  const cached = loaded.get(dir.href);
  if (cached) return cached;
  const files = modelFiles(dir, "npm run train:pii");
  const header = files.header<TaggerHeader>();
  if (header.format !== 1 || header.tags !== TAG_COUNT) {
    throw files.unusable("model.json", "unsupported tagger format or tag count");
  }
  const model = { dim: header.dim, weights: files.int16("weights.bin.gz", header.dim * header.tags) };
  loaded.set(dir.href, model);
  return model;
}
