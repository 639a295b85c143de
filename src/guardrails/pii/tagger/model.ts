import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { TAG_COUNT } from "./tags.js";

/**
 * A trained tagger: a dense feature-hashed weight table, `weights[row * TAG_COUNT + tag]`, quantised
 * to int16. Scores are only compared with each other, so the scale never needs applying.
 */
export interface TaggerModel {
  /** Rows in the table, a power of two: a feature hash is masked with `dim - 1`. */
  readonly dim: number;
  readonly weights: Int16Array;
}

interface Header {
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
  const header = JSON.parse(readFileSync(new URL("model.json", dir), "utf8")) as Header;
  if (header.format !== 1 || header.tags !== TAG_COUNT) {
    throw new Error(`${dir.pathname}model.json: unsupported tagger format or tag count`);
  }
  const bytes = gunzipSync(readFileSync(new URL("weights.bin.gz", dir)));
  if (bytes.length !== header.dim * header.tags * 2) {
    throw new Error(`${dir.pathname}weights.bin.gz: expected ${header.dim * header.tags * 2} bytes`);
  }
  // gunzip's output owns its memory: view it in place unless it starts at an odd byte offset.
  const weights =
    bytes.byteOffset % 2 === 0
      ? new Int16Array(bytes.buffer, bytes.byteOffset, header.dim * header.tags)
      : new Int16Array(new Uint8Array(bytes).buffer);
  const model = { dim: header.dim, weights };
  loaded.set(dir.href, model);
  return model;
}

/** Quantises float weights (the training script's side of the format above). */
export function encodeTaggerModel(dim: number, weights: Float64Array): { header: Header; bytes: Buffer } {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  const q = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) q[i] = Math.round((weights[i] as number) / scale);
  return { header: { format: 1, dim, tags: TAG_COUNT, scale }, bytes: Buffer.from(q.buffer) };
}
