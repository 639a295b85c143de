/**
 * Trains the content_moderation model and prints its held-out figures.
 *   npm run train:content-moderation -- [flags]   (--help lists them)
 * Writes models/content-moderation/{model.json, weights.bin.gz, metrics.json}. See MODEL_CARD.md there.
 * Steps: load and split (splits.ts) → embed → out-of-fold logits on the training part → Platt
 * scaling and a threshold sweep → final heads on the whole training part → write → figures on the
 * held-out part through the shipped weights.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadModerationModel } from "../../src/guardrails/content-moderation/model/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { atThreshold } from "../lib/metrics.js";
import { modelDir, REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { calibrate, outOfFoldLogits } from "./calibrate.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures, buryInBenign } from "./evaluate.js";
import { trainHeads } from "./heads.js";
import { report, testRows } from "./report.js";
import { buildPools } from "./splits.js";
import { headOptions } from "./train-options.js";
import { writeModel } from "./write-model.js";

const USAGE = "npm run train:content-moderation -- [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  out: flag.path(modelDir("content-moderation"), "where the model and metrics.json go"),
  seed: flag.integer(SEED, "seed of the GPTFuzz question split and every shuffle"),
  noEmbeddings: flag.boolean("train the n-gram heads alone (no encoder)"),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const options = headOptions(flags.seed);

  // Load and split.
  const pools = buildPools(flags.data, REPO, flags.seed);
  const binaryTrain = pools.binary.filter((r) => !r.test);
  const categoryTrain = pools.category.filter((r) => !r.test);
  const tests = testRows(pools);
  const buried = buryInBenign(
    tests.gptfuzz.filter((r) => r.label === 1),
    tests.benign,
  );
  log(
    `binary rows ${pools.binary.length} (train ${binaryTrain.length}), category rows ${pools.category.length}`,
  );

  // Embed.
  const texts = [...pools.binary, ...pools.category, ...pools.sanity, ...buried].map((r) => r.text);
  const vectors = flags.noEmbeddings ? undefined : (await embedTexts(texts, log)).vectors;

  // Calibrate on out-of-fold logits, then fit on the whole training part and write.
  const oof = outOfFoldLogits(binaryTrain, categoryTrain, options, vectors, log);
  const calibration = calibrate(oof, vectors !== undefined, log);
  const { threshold } = calibration;
  const params = trainHeads(binaryTrain, categoryTrain, options, vectors);
  const { bytes } = writeModel(flags.out, params, calibration.platt, threshold);
  log(`wrote ${flags.out} (weights.bin.gz ${(bytes / 1024).toFixed(0)} KiB)`);

  // Measure the written model.
  const model = await loadModerationModel(flags.out);
  const figures = {
    threshold,
    calibration: calibration.platt,
    oof: {
      gptfuzz: binaryFigures(calibration.gptfuzz, threshold),
      toxicity: binaryFigures(calibration.toxic, threshold),
      benignFpr: atThreshold(calibration.benign, threshold).fpr,
    },
    ngramOnly: report(model, tests, pools.sanity, buried, threshold),
    ...(vectors
      ? { withEmbeddings: report(model, tests, pools.sanity, buried, threshold, (t) => vectors.get(t)) }
      : {}),
  };
  console.log(JSON.stringify(figures, null, 2));
  writeFileSync(join(flags.out, "metrics.json"), `${JSON.stringify(figures, null, 2)}\n`);
  log("done");
}

runMain(import.meta.url, main);
