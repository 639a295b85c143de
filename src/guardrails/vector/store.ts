import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Encoder, EncoderInfo } from "../../models/encoder.js";
import { type BuiltIndex, buildIndex } from "./build.js";
import type { Corpus } from "./corpus.js";
import {
  BUILDER,
  decodeIndex,
  INDEX_FORMAT,
  type IndexManifest,
  sha256,
  type VectorIndex,
} from "./index-file.js";

/** One index on disk: which corpora it covers, where its two files live, how to rebuild it. */
export interface IndexTarget {
  readonly corpora: readonly Corpus[];
  readonly bin: string;
  readonly manifest: string;
  /** How the manifest names a corpus file (the bundled one is repo-relative, so it is portable). */
  readonly describe: (corpus: Corpus) => string;
  readonly rebuild: string;
}

export interface LoadedIndex {
  readonly index: VectorIndex;
  readonly status: "current" | "stale" | "missing";
  /** Warnings for the operator (a stale index was rebuilt in memory); the caller logs them. */
  readonly notes: readonly string[];
}

/**
 * Why the stored index cannot be used as is, or the index itself. An index built by the encoder
 * this one approximates (the fp32 USE-lite, for the int8 one) serves as is: their vectors agree
 * within the tolerance models/use-lite/README.md measures, and the vector guardrail's scores
 * with it within the figures given there.
 */
async function readStored(
  target: IndexTarget,
  encoder: Pick<EncoderInfo, "id" | "approximates">,
): Promise<VectorIndex | { why: string }> {
  let manifest: IndexManifest;
  let bytes: Uint8Array;
  try {
    manifest = JSON.parse(await readFile(target.manifest, "utf8")) as IndexManifest;
    bytes = await readFile(target.bin);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { why: code === "ENOENT" ? "missing" : `unreadable (${(error as Error).message})` };
  }
  const corpora = (manifest.corpora ?? []).map((c) => c.sha256).join();
  if (manifest.format !== INDEX_FORMAT || manifest.builder !== BUILDER)
    return { why: "built by another version" };
  if (manifest.encoder !== encoder.id && manifest.encoder !== encoder.approximates)
    return { why: `built for encoder ${manifest.encoder}, not ${encoder.id}` };
  if (corpora !== target.corpora.map((c) => c.sha256).join()) return { why: "its corpus changed" };
  if (manifest.indexSha256 !== sha256(bytes)) return { why: "its digest does not match the manifest" };
  const index = decodeIndex(bytes, manifest.ids ?? []);
  return typeof index === "string" ? { why: index } : index;
}

/**
 * Loads an index, or when it is missing or stale builds it in memory and says so in `notes`.
 * Never writes: a server must not modify its install, and `guardrail index build` is explicit.
 */
export async function loadIndex(target: IndexTarget, encoder: Encoder): Promise<LoadedIndex> {
  const stored = await readStored(target, await encoder.load());
  if (!("why" in stored)) return { index: stored, status: "current", notes: [] };
  const started = performance.now();
  const { index } = await buildIndex(target.corpora, encoder);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const note =
    `vector: index ${target.bin} is ${stored.why}; rebuilt ${index.rows} rows in memory in ${seconds} s. ` +
    `Run \`${target.rebuild}\` to save it and start faster.`;
  return { index, status: stored.why === "missing" ? "missing" : "stale", notes: [note] };
}

export interface SavedIndex {
  readonly file: string;
  readonly rows: number;
  /** "current" when the stored index already matched and `force` was not set. */
  readonly status: "current" | "rebuilt";
}

/** Rebuilds an index on disk unless it is current; the manifest is written last, after the data. */
export async function saveIndex(target: IndexTarget, encoder: Encoder, force = false): Promise<SavedIndex> {
  const stored = force ? undefined : await readStored(target, await encoder.load());
  if (stored && !("why" in stored)) return { file: target.bin, rows: stored.rows, status: "current" };
  const built: BuiltIndex = await buildIndex(target.corpora, encoder);
  const manifest = {
    ...built.manifest,
    corpora: target.corpora.map((c) => ({ file: target.describe(c), sha256: c.sha256 })),
  };
  await writeAtomic(target.bin, built.bytes);
  await writeAtomic(target.manifest, `${JSON.stringify(manifest, null, 1)}\n`);
  return { file: target.bin, rows: built.index.rows, status: "rebuilt" };
}

async function writeAtomic(file: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
