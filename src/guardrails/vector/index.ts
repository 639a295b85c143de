import { stat } from "node:fs/promises";
import { z } from "zod";
import { requestEmbeddings } from "../../engine/embedding.js";
import type { Encoder } from "../../models/encoder.js";
import type { CheckRequest, Detector, Finding, GuardrailDefinition } from "../types.js";
import { concatIndexes, type VectorIndex } from "./index-file.js";
import { createNativeScanner, type Scanner } from "./native-scan.js";
import { loadOwnEncoder, ownEmbeddingModel, ownIndexDir } from "./own-model.js";
import { scoreText } from "./refine.js";
import { type IndexTarget, type LoadedIndex, loadIndex } from "./store.js";
import { bundledTarget, readProfileCorpora, userIndexDir, userTarget } from "./targets.js";

/** Chosen by training/vector/eval.ts: ≤ 2% false positives on held-out benign prompts (models/vector/README.md). */
export const DEFAULT_THRESHOLD = 0.8;

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /** Cosine similarity at or above which a prompt counts as a known injection. */
  threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").default(DEFAULT_THRESHOLD),
  /** Extra corpora of known attacks (CSV, JSONL or text files), relative to the profile. */
  corpora: z.array(z.string().min(1)).default([]),
  /** Bring your own embedding model instead of USE-lite (see own-model.ts). */
  model: ownEmbeddingModel.optional(),
});
export type VectorSettings = z.output<typeof settings>;

/** The detector, plus what the operator should hear about at start-up (a stale index). */
export interface VectorDetector extends Detector {
  /** Warnings such as "index is stale; rebuilt in memory; run `guardrail index build`". */
  readonly notes: readonly string[];
  readonly rows: number;
}

// Every profile that enables `vector`, and every config reload, shares the bundled index: without
// this a stale index would be rebuilt (seconds) once per profile. Keyed by the manifest's stamp, so
// a reload after `guardrail index build` picks up the new file.
const shared = new WeakMap<Encoder, Map<string, Promise<LoadedIndex>>>();

async function loadShared(target: IndexTarget, encoder: Encoder): Promise<LoadedIndex> {
  const stamp = await stat(target.manifest).then(
    (s) => `${s.mtimeMs}:${s.size}`,
    () => "none",
  );
  const key = [target.bin, stamp, ...target.corpora.map((c) => c.sha256)].join("|");
  const cache = shared.get(encoder) ?? new Map<string, Promise<LoadedIndex>>();
  shared.set(encoder, cache);
  let loading = cache.get(key);
  if (!loading) {
    loading = loadIndex(target, encoder);
    cache.set(key, loading);
    loading.catch(() => cache.delete(key));
  }
  return loading;
}

// One native scanner per index object: profiles on the bundled index alone share one (with the
// index cache above); an unreferenced scanner's session is freed with it by the garbage collector.
const scanners = new WeakMap<VectorIndex, Promise<Scanner>>();

function sharedScanner(index: VectorIndex): Promise<Scanner> {
  let scanner = scanners.get(index);
  if (!scanner) {
    scanner = createNativeScanner(index);
    scanners.set(index, scanner);
  }
  return scanner;
}

/**
 * The indexes a profile's vector guardrail searches: the bundled corpus and its own corpora, built
 * with `encoderId`'s model (USE-lite's under models/vector/ and `<config>/.index/`, a profile's
 * own model's under `<config>/.index/<model id>/`). `guardrail index build` saves the same ones.
 */
export async function vectorTargets(
  options: VectorSettings,
  profileDir: string,
  profileName?: string,
  own?: { encoderId: string },
  bundled: { corpusFile?: string; indexDir?: string } = {},
): Promise<IndexTarget[]> {
  const dir = own ? ownIndexDir(profileDir, own.encoderId) : undefined;
  const targets = [await bundledTarget(dir ? { ...bundled, indexDir: dir } : bundled)];
  if (options.corpora.length > 0) {
    const corpora = await readProfileCorpora(options.corpora, profileDir);
    targets.push(userTarget(corpora, dir ?? userIndexDir(profileDir), profileName));
  }
  return targets;
}

export async function createVectorDetector(
  options: VectorSettings,
  context: { baseDir: string; encoder?: Encoder },
  bundled: { corpusFile?: string; indexDir?: string } = {},
): Promise<VectorDetector> {
  const own = options.model ? await loadOwnEncoder(options.model, context.baseDir) : undefined;
  const encoder = own ?? context.encoder;
  if (!encoder) throw new Error("vector needs the sentence encoder, and this engine was built without one");
  const ownId = own ? { encoderId: (await own.load()).id } : undefined;
  const targets = await vectorTargets(options, context.baseDir, undefined, ownId, bundled);
  const loaded = await Promise.all(targets.map((t) => loadShared(t, encoder)));
  const index = concatIndexes(loaded.map((l) => l.index));
  const scanner = await sharedScanner(index);
  const techniques = new Map<string, string | undefined>(
    targets.flatMap((t) => t.corpora.flatMap((c) => c.entries.map((e) => [e.id, e.technique] as const))),
  );

  const check = async (request: CheckRequest): Promise<Finding> => {
    // A model of the profile's own embeds the prompt itself; otherwise the request's shared vectors.
    const embedded = own ? requestEmbeddings(own, request.text.clean) : request;
    if (!embedded.embedding) throw new Error("vector: this request has no sentence embedding (no encoder)");
    const best = await scoreText(scanner, embedded.embedding, embedded.pieces);
    const finding = {
      flagged: best.score >= options.threshold,
      score: best.score,
      threshold: options.threshold,
    };
    const id = index.ids[best.row];
    if (id === undefined || !best.span) return finding;
    const technique = techniques.get(id);
    // For debugging only: the response renders `score` alone, as the spec says (docs/service-spec.md).
    return {
      ...finding,
      matched: [technique ? `${id} (${technique})` : id],
      spans: [{ start: best.span.start, end: best.span.end, label: id }],
    };
  };
  return { check, notes: loaded.flatMap((l) => l.notes), rows: index.rows };
}

export const vectorGuardrail = {
  id: "vector",
  appliesTo: ["input"],
  settings,
  usesEncoder: true,
  scored: true,
  create: (options, context) => createVectorDetector(options, context),
  render: (finding) =>
    finding
      ? { enabled: true, score: finding.score === undefined ? null : Math.round(finding.score * 1e4) / 1e4 }
      : { enabled: false, score: null },
} satisfies GuardrailDefinition<VectorSettings>;
