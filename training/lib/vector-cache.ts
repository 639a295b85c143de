/**
 * The trainers' one embedding cache: encoder vectors by text, a list of vectors per text (one per
 * window, or one for a window itself), kept in memory and, given a file stem, on disk as
 * `<stem>.json` (an index of [sha1 of the text, vector count]) and `<stem>.f32` (the vectors).
 * The stem names the encoder's id, so a rebuilt encoder starts a fresh cache.
 *
 * The encoder's vectors depend in their last bits on which texts share a batch, so a cached vector
 * is the one first computed, and how a trainer batches its texts (`fill`'s `chunk`) is part of
 * what makes a cold run reproduce a model.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO } from "./paths.js";

/** node_modules/.cache/guardrail of this checkout: kept across reboots, gone with `npm ci`. */
export const CACHE_DIR = join(REPO, "node_modules/.cache/guardrail");

/** `<CACHE_DIR>/<name>-<encoder id>`, the id made safe for a file name. */
export const cacheStem = (name: string, encoderId: string): string =>
  join(CACHE_DIR, `${name}-${encoderId.replace(/[^\w.-]/g, "_")}`);

export interface VectorCache {
  get(text: string): Float32Array[] | undefined;
  /** The texts not cached yet, each once, in first-seen order. */
  missing(texts: Iterable<string>): string[];
  /**
   * Embeds `texts` `chunk` at a time with `embed` (one list of vectors per text), adds them, and
   * saves the cache when it has a file.
   */
  fill(
    texts: readonly string[],
    chunk: number,
    embed: (texts: string[]) => Promise<Float32Array[][]>,
    progress?: (done: number, total: number) => void,
  ): Promise<void>;
  readonly size: number;
}

const keyOf = (text: string) => createHash("sha1").update(text).digest("base64url");

/** Opens the cache at `stem` (read if present), or an in-memory one without a stem. */
export function openVectorCache(dim: number, stem?: string): VectorCache {
  const entries = stem ? readEntries(stem, dim) : new Map<string, Float32Array[]>();
  return {
    get: (text) => entries.get(keyOf(text)),
    missing: (texts) => [...new Set(texts)].filter((t) => !entries.has(keyOf(t))),
    async fill(texts, chunk, embed, progress) {
      for (let from = 0; from < texts.length; from += chunk) {
        const batch = texts.slice(from, from + chunk);
        const vectors = await embed(batch);
        batch.forEach((t, i) => {
          entries.set(keyOf(t), vectors[i] ?? []);
        });
        progress?.(Math.min(from + chunk, texts.length), texts.length);
      }
      if (stem && texts.length > 0) writeEntries(stem, entries, dim);
    },
    get size() {
      return entries.size;
    },
  };
}

function readEntries(stem: string, dim: number): Map<string, Float32Array[]> {
  const entries = new Map<string, Float32Array[]>();
  if (!existsSync(`${stem}.json`) || !existsSync(`${stem}.f32`)) return entries;
  const index = JSON.parse(readFileSync(`${stem}.json`, "utf8")) as [string, number][];
  const bytes = readFileSync(`${stem}.f32`);
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  if (all.length !== index.reduce((n, [, count]) => n + count, 0) * dim) return entries;
  let offset = 0;
  for (const [key, count] of index) {
    const list: Float32Array[] = [];
    for (let i = 0; i < count; i++, offset += dim) list.push(all.subarray(offset, offset + dim));
    entries.set(key, list);
  }
  return entries;
}

function writeEntries(stem: string, entries: Map<string, Float32Array[]>, dim: number): void {
  const index: [string, number][] = [...entries].map(([key, list]) => [key, list.length]);
  const data = new Float32Array(index.reduce((n, [, count]) => n + count, 0) * dim);
  let offset = 0;
  for (const list of entries.values()) for (const v of list) data.set(v, offset++ * dim);
  mkdirSync(dirname(stem), { recursive: true });
  writeFileSync(`${stem}.f32`, new Uint8Array(data.buffer));
  writeFileSync(`${stem}.json`, JSON.stringify(index));
}
