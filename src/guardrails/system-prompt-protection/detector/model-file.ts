import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { HashedModel, PartsModel } from "./linear.js";

/**
 * The bundled leak model: two hashed n-gram classifiers (is this response disclosing its
 * instructions; is this prompt trying to extract them) and one combiner per configuration
 * (with or without a system prompt, the encoder, the originating prompt). Weights are int16 with
 * one scale each, gzipped; everything else is JSON.
 */
export interface LeakModel {
  readonly threshold: number;
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
  disclosure: HashedHeader;
  extraction: HashedHeader;
  combiners: Record<string, PartsModel>;
  [extra: string]: unknown;
}

export const DEFAULT_LEAK_MODEL_DIR = new URL(
  "../../../../models/system-prompt-protection/",
  import.meta.url,
);
const REBUILD = "rebuild it with `npm run train:system-prompt-protection`";

function readHashed(dir: URL, h: HashedHeader): HashedModel {
  const url = new URL(h.file, dir);
  let bytes: Buffer;
  try {
    bytes = gunzipSync(readFileSync(url));
  } catch (error) {
    throw new Error(
      `leak model weights ${url.pathname} are missing or unreadable (${String(error)}): ${REBUILD}`,
    );
  }
  const size = 1 << h.bits;
  if (bytes.length !== size * 2) throw new Error(`${url.pathname}: expected ${size * 2} bytes: ${REBUILD}`);
  // Copy into an aligned buffer: Buffer slices from the pool may start at an odd offset.
  const q = new Int16Array(size);
  new Uint8Array(q.buffer).set(bytes);
  return { bits: h.bits, bias: h.bias, weights: Float32Array.from(q, (x) => x * h.scale) };
}

const loaded = new Map<string, LeakModel>();

/** Reads the model once per directory; every detector in the process shares it. */
export function loadLeakModel(dir: URL = DEFAULT_LEAK_MODEL_DIR): LeakModel {
  const cached = loaded.get(dir.href);
  if (cached) return cached;
  const url = new URL("model.json", dir);
  let header: ModelHeader;
  try {
    header = JSON.parse(readFileSync(url, "utf8")) as ModelHeader;
  } catch (error) {
    throw new Error(`leak model ${url.pathname} is missing or unreadable (${String(error)}): ${REBUILD}`);
  }
  if (header.format !== 1) throw new Error(`${url.pathname}: unsupported format: ${REBUILD}`);
  const model: LeakModel = {
    threshold: header.threshold,
    disclosure: readHashed(dir, header.disclosure),
    extraction: readHashed(dir, header.extraction),
    combiners: header.combiners,
  };
  loaded.set(dir.href, model);
  return model;
}

/** Quantises float weights to int16 (the training script's side of the format). */
export function encodeHashed(bits: number, bias: number, weights: Float64Array, file: string) {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  const q = Int16Array.from(weights, (w) => Math.round(w / scale));
  const header: HashedHeader = { bits, bias, scale, file };
  return { header, bytes: Buffer.from(q.buffer) };
}
