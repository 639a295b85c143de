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
import { loadTaggerModel, type TaggerHeader } from "../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../src/guardrails/pii/tagger/tagger.js";
import { TAG_COUNT } from "../../src/guardrails/pii/tagger/tags.js";
import { quantise, writeHeader, writeTable } from "../../src/models/weight-file.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain } from "../lib/main.js";
import { modelDir, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { type LabelledText, loadNannigalaxy, loadPresidio, loadWnut, taggedOnly } from "./data.js";
import { createExampleMaker, type TaggedExample, trainPerceptron } from "./perceptron.js";
import { spanScores } from "./span-scores.js";

const USAGE = "npm run train:pii -- [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "pii"), "the pii data sets"),
  out: flag.path(modelDir("pii/tagger"), "where the tagger goes"),
  holdout: flag.optionalInteger("leave fifth K (0–4) of dev out of training and score it", {
    min: 0,
    max: 4,
  }),
  epochs: flag.integer(8, "perceptron epochs", { min: 1 }),
  bits: flag.integer(18, "log2 of the feature table's rows", { min: 8, max: 24 }),
  seed: flag.integer(SEED, "seed of the per-epoch shuffle"),
  repeat: flag.integer(3, "times each PII text is shown per epoch (WNUT-17 tweets once)", { min: 1 }),
  noWnut: flag.boolean("train without WNUT-17"),
};

/** A fifth of dev, as a share of generated_large. */
const FOLD = 0.08;

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const started = performance.now();
  const large = `${flags.data}/presidio-research/generated_large.json`;
  const fold = flags.holdout ?? -1;
  const foldFrom = fold * FOLD;

  // Load.
  const devRows =
    fold < 0
      ? loadPresidio(large, 0, 0.4)
      : [...loadPresidio(large, 0, foldFrom), ...loadPresidio(large, foldFrom + FOLD, 0.4)];
  const sources: [string, LabelledText[]][] = [
    ["generated_large dev", devRows],
    ["generated_small", loadPresidio(`${flags.data}/presidio-research/generated_small.json`)],
    ["nannigalaxy", loadNannigalaxy(`${flags.data}/nannigalaxy/pii_syn_nano_en.json`)],
  ];
  if (!flags.noWnut) sources.push(["wnut17 train", loadWnut(`${flags.data}/wnut17/wnut17train.conll`)]);

  // Featurise.
  const lexicon = loadLexicon();
  const dim = 1 << flags.bits;
  const toExample = createExampleMaker(lexicon, dim);
  const examples: TaggedExample[] = [];
  for (const [name, texts] of sources) {
    const before = examples.length;
    // WNUT-17 tweets outnumber the PII texts; --repeat N shows each PII text N times per epoch.
    const times = name.startsWith("wnut") ? 1 : flags.repeat;
    for (const t of taggedOnly(texts)) for (let r = 0; r < times; r++) examples.push(toExample(t));
    const toks = examples.slice(before).reduce((a, e) => a + e.gold.length, 0);
    console.log(
      `${name.padEnd(20)} ${String(texts.length).padStart(5)} texts ${String(toks).padStart(7)} tokens`,
    );
  }

  // Fit and write.
  const weights = trainPerceptron(examples, { dim, epochs: flags.epochs, seed: flags.seed }, console.log);
  const { scale, values: quantised } = quantise(weights);
  const header: TaggerHeader = { format: 1, dim, tags: TAG_COUNT, scale };
  mkdirSync(flags.out, { recursive: true });
  writeHeader(`${flags.out}/model.json`, {
    ...header,
    seed: flags.seed,
    epochs: flags.epochs,
    trained: "2026-11-22",
  });
  const packed = writeTable(`${flags.out}/weights.bin.gz`, quantised);
  const nonzero = quantised.length - quantised.filter((v) => v === 0).length;
  console.log(
    `trained in ${((performance.now() - started) / 1000).toFixed(1)} s; ${nonzero} non-zero weights; weights.bin.gz ${(packed / 1024).toFixed(0)} KiB`,
  );

  // Score held-out texts: the tagger alone, a prediction counting when it overlaps a gold span of its type.
  const tag = createTagger(loadTaggerModel(pathToFileURL(`${flags.out}/`)), lexicon);
  if (fold >= 0)
    spanScores(
      `held-out fold ${fold} of dev`,
      taggedOnly(loadPresidio(large, foldFrom, foldFrom + FOLD)),
      tag,
    );
  spanScores("WNUT-17 dev (emerging.dev.conll)", loadWnut(`${flags.data}/wnut17/emerging.dev.conll`), tag);
}

runMain(import.meta.url, main);
