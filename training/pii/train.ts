/**
 * Trains the pii sequence tagger (averaged perceptron, greedy BIO decoding) and writes
 * models/pii/tagger/{model.json,weights.bin.gz}.
 *   npm run train:pii -- [flags]   (--help lists them)
 * Trains on the dev split of generated_large (its first 40%), generated_small, WNUT-17 train and
 * nannigalaxy. --holdout K leaves fifth K of dev out and scores it (eval:pii -- --split fold:K).
 * Steps: load → featurise → fit → write → score the held-out texts through the written model.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadLexicon } from "../../src/guardrails/pii/lexicon.js";
import { loadTaggerModel } from "../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../src/guardrails/pii/tagger/tagger.js";
import { writeHeader, writeTable } from "../../src/models/weight-file.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain } from "../lib/main.js";
import { modelDir, SHARED_DATASETS } from "../lib/paths.js";
import { loadPresidio, loadWnut, taggedOnly } from "./data.js";
import { FIT_DEFAULTS, FOLD, fitTagger, trainingSets } from "./fit.js";
import { spanScores } from "./span-scores.js";

const USAGE = "npm run train:pii -- [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "pii"), "the pii data sets"),
  out: flag.path(modelDir("pii/tagger"), "where the tagger goes"),
  holdout: flag.optionalInteger("leave fifth K (0–4) of dev out of training and score it", {
    min: 0,
    max: 4,
  }),
  epochs: flag.integer(FIT_DEFAULTS.epochs, "perceptron epochs", { min: 1 }),
  bits: flag.integer(FIT_DEFAULTS.bits, "log2 of the feature table's rows", { min: 8, max: 24 }),
  seed: flag.integer(FIT_DEFAULTS.seed, "seed of the per-epoch shuffle"),
  repeat: flag.integer(FIT_DEFAULTS.repeat, "times each PII text is shown per epoch (WNUT-17 tweets once)", {
    min: 1,
  }),
  noWnut: flag.boolean("train without WNUT-17"),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const started = performance.now();
  const large = `${flags.data}/presidio-research/generated_large.json`;
  const fold = flags.holdout;

  // Load, featurise, fit.
  const sets = trainingSets(flags.data, { ...(fold === undefined ? {} : { fold }), wnut: !flags.noWnut });
  const { header, weights } = fitTagger(sets, flags, console.log);

  // Write.
  mkdirSync(flags.out, { recursive: true });
  writeHeader(`${flags.out}/model.json`, {
    ...header,
    seed: flags.seed,
    epochs: flags.epochs,
    trained: "2026-11-22",
  });
  const packed = writeTable(`${flags.out}/weights.bin.gz`, weights);
  const nonzero = weights.length - weights.filter((v) => v === 0).length;
  console.log(
    `trained in ${((performance.now() - started) / 1000).toFixed(1)} s; ${nonzero} non-zero weights; weights.bin.gz ${(packed / 1024).toFixed(0)} KiB`,
  );

  // Score held-out texts: the tagger alone, a prediction counting when it overlaps a gold span of its type.
  const tag = createTagger(loadTaggerModel(pathToFileURL(`${flags.out}/`)), loadLexicon());
  if (fold !== undefined)
    spanScores(
      `held-out fold ${fold} of dev`,
      taggedOnly(loadPresidio(large, fold * FOLD, (fold + 1) * FOLD)),
      tag,
    );
  spanScores("WNUT-17 dev (emerging.dev.conll)", loadWnut(`${flags.data}/wnut17/emerging.dev.conll`), tag);
}

runMain(import.meta.url, main);
