/**
 * Every example, assigned once to test (only with `holdout`: the pooled-split sanity check) or to
 * one of the training folds:
 * - GPTFuzz by question (a group split): the same harmful question is never on both sides;
 * - everything else by a hash of its text, so a row keeps its side however the files are ordered.
 * Test rows are never seen by training, calibration or the threshold sweep; folds give out-of-fold
 * scores on the training part for Platt scaling and the threshold sweep.
 */

import { mulberry32 as rng, shuffle } from "../lib/random.js";
import { loadCategorySets } from "./data-categories.js";
import { loadWrittenPosts, WRITTEN_ENGLISH_POSTS, WRITTEN_POSTS } from "./data-posts.js";
import { loadPublicSources } from "./data-public.js";
import { loadBenignResponses, loadGptfuzz } from "./data-responses.js";
import { loadDavidson, loadToxigen } from "./data-toxicity.js";
import { loadSanity, loadWritten } from "./data-written.js";
import { bucket, type Example } from "./example.js";

export const FOLDS = 4;

export interface Row extends Example {
  readonly test: boolean;
  readonly fold: number;
}

export interface Pools {
  /** Unsafe-vs-safe rows (with `label`). */
  readonly binary: Row[];
  /** Category rows (with `category`): harmful prompts, compliant responses, toxic text. */
  readonly category: Row[];
  readonly sanity: Example[];
}

function hashRow(e: Example, testShare: number): Row {
  const b = bucket(e.text, 11);
  return { ...e, test: b < testShare, fold: Math.floor(bucket(e.text, 29) * FOLDS) };
}

export interface PoolOptions {
  /** Hold out a test part (20% of GPTFuzz's questions, a hash-chosen share of the rest). */
  readonly holdout: boolean;
  /** Sources to leave out entirely (an experiment's switch; the shipped model leaves out none). */
  readonly without?: readonly string[];
}

export function buildPools(dataDir: string, root: string, seed: number, o: PoolOptions): Pools {
  const share = (x: number) => (o.holdout ? x : 0);
  const byHash = (e: Example, testShare: number): Row => hashRow(e, share(testShare));
  const gptfuzz = loadGptfuzz(dataDir);
  const questions = shuffle([...new Set(gptfuzz.map((e) => e.group as string))].sort(), rng(seed));
  const testQuestions = new Set(questions.slice(0, Math.round(questions.length * share(0.2))));
  const foldOf = new Map(questions.filter((q) => !testQuestions.has(q)).map((q, i) => [q, i % FOLDS]));
  const gptfuzzRows = gptfuzz.map((e): Row => {
    const group = e.group as string;
    return { ...e, test: testQuestions.has(group), fold: foldOf.get(group) ?? -1 };
  });

  // Davidson is 77% "offensive": keep a hash-chosen quarter of those so tweets do not swamp responses.
  const davidson = loadDavidson(dataDir)
    .filter((e) => e.category !== "HARASSMENT" || bucket(e.text, 3) < 0.25)
    .map((e) => byHash(e, 0.2));
  const toxigen = loadToxigen(dataDir).map((e) => byHash(e, 0.25));
  const benign = loadBenignResponses(dataDir).map((e) => byHash(e, 0.2));
  const written = loadWritten(root).map(
    (e): Row => ({ ...e, test: false, fold: Math.floor(bucket(e.text, 29) * FOLDS) }),
  );
  const prompts = loadCategorySets(dataDir).map((e) => byHash(e, 0.2));
  const fresh = loadPublicSources(dataDir).map((e) => byHash(e, 0.2));
  const posts = loadWrittenPosts(root).map((e) => byHash(e, 0.2));

  const skip = new Set(o.without ?? []);
  const binary = [...gptfuzzRows, ...benign, ...davidson, ...toxigen, ...written, ...fresh, ...posts].filter(
    (r) => !skip.has(r.source),
  );
  // Toxic rows are plentiful: about a third of them teach categories. Lexicon words teach none.
  const toxicForCategory = binary.filter(
    (e) => e.category && e.signal === "toxic" && e.source !== "surge-profanity" && bucket(e.text, 5) < 0.35,
  );
  const category = [
    ...prompts,
    ...binary.filter((e) => e.category && e.signal === "compliance"),
    ...toxicForCategory,
  ];
  return { binary, category, sanity: loadSanity(root) };
}

/** How much each source counts in training: tweets are plentiful and far from LLM responses. */
export const SOURCE_WEIGHT: Record<string, number> = {
  gptfuzz: 1,
  "alpaca-outputs": 1,
  "gpteacher-roleplay": 1,
  "self-instruct": 1,
  davidson: 0.5,
  toxigen: 1,
  written: 1,
  [WRITTEN_POSTS]: 1,
  [WRITTEN_ENGLISH_POSTS]: 1,
  ailuminate: 1,
  catqa: 1,
  donotanswer: 1,
  harmbench: 1,
  hatecheck: 1,
  ethos: 1,
  stormfront: 1,
  germeval2018: 0.5,
  realtoxicityprompts: 1,
  "surge-profanity": 1,
  "harmbench-cls-val": 1,
};

/** A row's training weight before its label's: its source's weight times its own (a lexicon entry's severity). */
export const rowWeight = (r: Row): number => (SOURCE_WEIGHT[r.source] ?? 1) * (r.weight ?? 1);
