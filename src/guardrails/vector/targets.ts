import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Corpus, readCorpus } from "./corpus.js";
import { sha256 } from "./index-file.js";
import type { IndexTarget } from "./store.js";

/** src/guardrails/vector and dist/guardrails/vector are both three levels below the package root. */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const BUNDLED_CORPUS = join(ROOT, "models", "vector", "known-injections.jsonl");
export const BUNDLED_INDEX_DIR = join(ROOT, "models", "vector");
export const REBUILD_COMMAND = "guardrail index build";

/**
 * The project's own corpus of known attacks and its committed index under models/vector/.
 * English rows only: USE-lite is an English model, and to it every German or Japanese text looks
 * alike, so foreign-language attacks matched any foreign-language prompt (models/vector/README.md).
 */
export async function bundledTarget(
  options: { corpusFile?: string; indexDir?: string } = {},
): Promise<IndexTarget> {
  const read = await readCorpus(options.corpusFile ?? BUNDLED_CORPUS, "bundled vector corpus");
  const corpus = { ...read, entries: read.entries.filter((e) => e.lang === undefined || e.lang === "en") };
  const dir = options.indexDir ?? BUNDLED_INDEX_DIR;
  return {
    corpora: [corpus],
    bin: join(dir, "index.bin"),
    manifest: join(dir, "manifest.json"),
    describe: (c) => relative(ROOT, c.file).split("\\").join("/"),
    rebuild: REBUILD_COMMAND,
  };
}

/**
 * Profile corpora live in `<config>/.index/`, one index per set of corpus contents (the name is a
 * digest of their SHA-256s): editing a corpus points at a new file instead of silently reusing
 * the old one. Profiles sit in `<config>/profiles/`, so the cache is a sibling of that directory.
 */
export const userIndexDir = (profileDir: string): string => resolve(profileDir, "..", ".index");

export function userTarget(corpora: readonly Corpus[], cacheDir: string, profile?: string): IndexTarget {
  const key = sha256(corpora.map((c) => c.sha256).join("\n")).slice(0, 16);
  return {
    corpora,
    bin: join(cacheDir, `${key}.bin`),
    manifest: join(cacheDir, `${key}.json`),
    describe: (c) => c.file,
    rebuild: `${REBUILD_COMMAND}${profile ? ` --profile ${profile}` : ""}`,
  };
}

/** Reads a profile's `corpora` (paths relative to the profile file); errors name the entry. */
export function readProfileCorpora(paths: readonly string[], profileDir: string): Promise<Corpus[]> {
  return Promise.all(
    paths.map((path, i) => readCorpus(resolve(profileDir, path), `guardrails.vector.corpora[${i}]`)),
  );
}
