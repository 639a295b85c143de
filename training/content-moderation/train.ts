/**
 * Trains the content_moderation model on every source (nothing held out: model selection is
 * leave-one-source-out, loso.ts) and prints its out-of-fold figures.
 *   npm run train:content-moderation -- [flags]   (--help lists them)
 * Writes models/content-moderation/{model.json, weights.bin.gz, metrics.json}. See MODEL_CARD.md there.
 * Steps: load (splits.ts) → embed → out-of-fold logits of both signals → Platt scaling per signal
 * and the verdict threshold → final heads on everything → write → figures through the shipped
 * weights. `--holdout` keeps a pooled test part out instead, as a sanity check.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadModerationModel } from "../../src/guardrails/content-moderation/model/index.js";
import { flag, parseFlags, UsageError, usageOf } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { modelDir, REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { bySource, calibrate, outOfFoldLogits } from "./calibrate.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures, buryInBenign, type Lookup } from "./evaluate.js";
import { trainHeads } from "./heads.js";
import { report, sanityReport, testRows } from "./report.js";
import { buildPools } from "./splits.js";
import { headOptions } from "./train-options.js";
import { writeModel } from "./write-model.js";

const USAGE = "npm run train:content-moderation -- [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  out: flag.path(modelDir("content-moderation"), "where the model and metrics.json go"),
  seed: flag.integer(SEED, "seed of the GPTFuzz question split and every shuffle"),
  noEmbeddings: flag.boolean("train the n-gram heads alone (no encoder)"),
  toxicAt: flag.number(
    0,
    "the toxic signal's operating point, as loso-sweep.ts picks it from held-out sources; 0: the out-of-fold rule",
    { min: 0, max: 1 },
  ),
  complianceAt: flag.number(0, "the compliance signal's operating point (give both or neither)", {
    min: 0,
    max: 1,
  }),
  holdout: flag.boolean(
    "hold out a pooled test part and report on it (a sanity check, not the shipped model)",
  ),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  if (flags.toxicAt > 0 !== flags.complianceAt > 0)
    throw new UsageError("--toxic-at and --compliance-at: give both or neither", usageOf(USAGE, FLAGS));
  const log = timedLog();
  const options = headOptions(flags.seed);

  // Load and split.
  const pools = buildPools(flags.data, REPO, flags.seed, { holdout: flags.holdout });
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
  const oof = outOfFoldLogits(binaryTrain, options, vectors, log);
  const calibration = calibrate(oof, vectors !== undefined, log);
  // The out-of-fold rule chases F1 on sources where most rows are toxic; the bundled operating
  // points are the ones leave-one-source-out picks (loso-sweep.ts), given here.
  const at =
    flags.toxicAt > 0
      ? { toxic: flags.toxicAt, compliance: flags.complianceAt }
      : { toxic: calibration.threshold, compliance: calibration.threshold };
  const params = trainHeads(binaryTrain, categoryTrain, options, vectors);
  const { bytes } = writeModel(flags.out, params, calibration.platt, at);
  log(`wrote ${flags.out} (weights.bin.gz ${(bytes / 1024).toFixed(0)} KiB)`);

  // Measure the written model.
  const model = await loadModerationModel(flags.out);
  const { threshold } = model;
  const measure = (lookup?: Lookup) =>
    flags.holdout
      ? report(model, tests, pools.sanity, buried, threshold, lookup)
      : sanityReport(model, pools.sanity, threshold, lookup);
  const figures = {
    operatingPoints: at,
    calibration: calibration.platt,
    oof: Object.fromEntries(
      [...bySource(oof, calibration.platt, at)].map(([source, scored]) => [
        source,
        binaryFigures(scored, threshold),
      ]),
    ),
    ngramOnly: measure(),
    ...(vectors ? { withEmbeddings: measure((t) => vectors.get(t)) } : {}),
  };
  console.log(JSON.stringify(figures, null, 2));
  writeFileSync(join(flags.out, "metrics.json"), `${JSON.stringify(figures, null, 2)}\n`);
  log("done");
}

runMain(import.meta.url, main);
