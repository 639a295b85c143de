import { createHash } from "node:crypto";

/**
 * The on-disk index: `<name>.bin` holds int8 rows with one float32 scale each (a quarter of
 * float32's size; the cosine moves by well under 0.005), `<name>.json` the manifest that says what
 * it was built from. A manifest that disagrees with the corpus bytes, the encoder id or this
 * builder marks the index stale.
 */
export const INDEX_FORMAT = "int8-row-scale/1";
/** Bump when the rows could change for the same corpus and encoder (windowing, quantisation). */
export const BUILDER = "guardrail-vector/2 windows=96/1 pieces=32 dedup=0.9 bundled=en";
const MAGIC = 0x49565247; // "GRVI", little-endian
const HEADER_BYTES = 16;

/** Unit rows in one flat matrix, ready to scan, and the corpus entry each row came from. */
export interface VectorIndex {
  readonly rows: number;
  readonly dim: number;
  readonly vectors: Float32Array;
  readonly ids: readonly string[];
}

export interface IndexManifest {
  readonly format: string;
  readonly builder: string;
  readonly encoder: string;
  readonly corpora: readonly { readonly file: string; readonly sha256: string }[];
  readonly rows: number;
  readonly dim: number;
  readonly indexSha256: string;
  /** Corpus entry id of each row, in row order. */
  readonly ids: readonly string[];
}

export const sha256 = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex");

export function encodeIndex(index: VectorIndex): Uint8Array {
  const { rows, dim, vectors } = index;
  const bytes = new Uint8Array(HEADER_BYTES + rows * 4 + rows * dim);
  const view = new DataView(bytes.buffer);
  for (const [i, value] of [MAGIC, 1, rows, dim].entries()) view.setUint32(i * 4, value, true);
  const data = new Int8Array(bytes.buffer, HEADER_BYTES + rows * 4);
  for (let r = 0; r < rows; r++) {
    const row = vectors.subarray(r * dim, (r + 1) * dim);
    let max = 0;
    for (const x of row) max = Math.max(max, Math.abs(x));
    const scale = max / 127;
    view.setFloat32(HEADER_BYTES + r * 4, scale, true);
    for (let j = 0; j < dim; j++)
      data[r * dim + j] = scale === 0 ? 0 : Math.round((row[j] as number) / scale);
  }
  return bytes;
}

/** Decodes and re-normalises each row, so a dot product with a unit query is the cosine. */
export function decodeIndex(bytes: Uint8Array, ids: readonly string[]): VectorIndex | string {
  if (bytes.byteLength < HEADER_BYTES) return "truncated header";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (i: number) => view.getUint32(i * 4, true);
  const [magic, version, rows, dim] = [word(0), word(1), word(2), word(3)];
  if (magic !== MAGIC || version !== 1) return "not a vector index file";
  if (bytes.byteLength !== HEADER_BYTES + rows * 4 + rows * dim) return "size does not match its header";
  if (ids.length !== rows) return `manifest lists ${ids.length} row ids for ${rows} rows`;
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES + rows * 4, rows * dim);
  const vectors = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let norm = 0;
    for (let j = r * dim; j < (r + 1) * dim; j++) norm += (data[j] as number) ** 2;
    const k = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    for (let j = r * dim; j < (r + 1) * dim; j++) vectors[j] = (data[j] as number) * k;
  }
  return { rows, dim, vectors, ids };
}

/** Several indexes as one matrix: the bundled corpus and a profile's own corpora scan together. */
export function concatIndexes(parts: readonly VectorIndex[]): VectorIndex {
  const [first] = parts;
  if (parts.length === 1 && first) return first;
  const dim = first?.dim ?? 0;
  const vectors = new Float32Array(parts.reduce((n, p) => n + p.vectors.length, 0));
  let at = 0;
  for (const part of parts) {
    vectors.set(part.vectors, at);
    at += part.vectors.length;
  }
  return { rows: vectors.length / (dim || 1), dim, vectors, ids: parts.flatMap((p) => p.ids) };
}
