import { MAX_PIECES, PIECE_WINDOWS } from "../../engine/embedding.js";
import { cosine, type Encoder } from "../../models/encoder.js";
import { splitIntoWindows, type TextWindow } from "../../text/windows.js";
import type { Corpus } from "./corpus.js";
import {
  BUILDER,
  decodeIndex,
  encodeIndex,
  INDEX_FORMAT,
  type IndexManifest,
  sha256,
  type VectorIndex,
} from "./index-file.js";

export interface BuiltIndex {
  readonly index: VectorIndex;
  readonly manifest: IndexManifest;
  /** The `.bin` bytes the manifest's digest describes. */
  readonly bytes: Uint8Array;
}

/** Rows of one entry closer than this to a row already kept add nothing but rows. */
const DUPLICATE_COSINE = 0.9;

/**
 * An entry's request-sized windows, then its sentence pieces (whole sentences packed up to 32
 * tokens) when it has more than one. A short prompt is one window of its own, so it is compared with
 * whole corpus entries; an attack sentence inside a longer entry only matches it closely from a row
 * that holds little else (figures in models/vector/README.md). A piece as close as DUPLICATE_COSINE
 * to a row already kept is dropped below. Entries of more than MAX_PIECES pieces (flooded contexts)
 * keep their windows only, as requests do.
 */
function entryWindows(text: string, count: (t: string) => number): TextWindow[] {
  const windows = splitIntoWindows(text, count);
  const pieces = splitIntoWindows(text, count, PIECE_WINDOWS);
  return pieces.length > 1 && pieces.length <= MAX_PIECES ? [...windows, ...pieces] : windows;
}

/**
 * Embeds every entry, windowed as requests are (engine/embedding.ts) and cut into sentence pieces,
 * so a long attack (a many-shot dialogue, a flooded context) is matched window by window, not by a
 * truncated head. The scanned vectors are the quantised ones, so a freshly built index scores like
 * a loaded one.
 */
export async function buildIndex(corpora: readonly Corpus[], encoder: Encoder): Promise<BuiltIndex> {
  const { id: encoderId } = await encoder.load();
  const texts: string[] = [];
  const owners: string[] = [];
  const count = (t: string) => encoder.countTokens(t);
  for (const corpus of corpora) {
    for (const entry of corpus.entries) {
      for (const window of entryWindows(entry.text, count)) {
        texts.push(window.text);
        owners.push(entry.id);
      }
    }
  }
  const embedded = await encoder.embed(texts);
  // A flooded context is hundreds of windows of the same filler: keep one of them, not all.
  const kept: number[] = [];
  embedded.forEach((v, i) => {
    const same = (k: number) =>
      owners[k] === owners[i] && cosine(embedded[k] as Float32Array, v) >= DUPLICATE_COSINE;
    let duplicate = false;
    for (let k = kept.length - 1; k >= 0 && owners[kept[k] as number] === owners[i]; k--) {
      if (same(kept[k] as number)) duplicate = true;
    }
    if (!duplicate) kept.push(i);
  });
  const ids = kept.map((i) => owners[i] as string);
  const vectors = new Float32Array(kept.length * encoder.dim);
  kept.forEach((i, row) => {
    vectors.set(embedded[i] as Float32Array, row * encoder.dim);
  });
  const bytes = encodeIndex({ rows: kept.length, dim: encoder.dim, vectors, ids });
  const manifest: IndexManifest = {
    format: INDEX_FORMAT,
    builder: BUILDER,
    encoder: encoderId,
    corpora: corpora.map((c) => ({ file: c.file, sha256: c.sha256 })),
    rows: kept.length,
    dim: encoder.dim,
    indexSha256: sha256(bytes),
    ids,
  };
  const index = decodeIndex(bytes, ids);
  if (typeof index === "string") throw new Error(`vector index: ${index}`);
  return { index, manifest, bytes };
}
