/**
 * Trains the `llm` guardrail's injection classifier and writes models/llm/{model.json,
 * weights.bin.gz, mlp.bin.gz}, then prints the held-out evaluation and splices it into MODEL_CARD.md.
 *   npm run train:llm -- [flags]   (--help lists them)
 * Steps: load and split by family → n-gram features and encoder windows → fit (n-grams, then the
 * MLP over windows; with --refit K on train + calibration, plus K out-of-fold fits to calibrate
 * on) → calibrate and pick thresholds → measure through the shipped classifier → write.
 */
import { resolve } from "node:path";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { flag, type Parsed, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { modelDir, REPO } from "../lib/paths.js";
import { assemble } from "./assemble.js";
import { type FitSet, fitStack, outOfFold } from "./cross-fit.js";
import { DATA_FLAGS, loadSplits } from "./data.js";
import { type Embedded, embedExamples } from "./embed.js";
import { cardTables } from "./evaluate.js";
import type { Example } from "./example.js";
import { fitContext, MODEL_FLAGS, thresholdRules } from "./fit-context.js";
import { featureExamples } from "./items.js";
import type { Split } from "./split.js";
import { summarize } from "./summary.js";
import { writeModel } from "./write-model.js";

const USAGE = "npm run train:llm -- [flags]";
const FLAGS = {
  ...DATA_FLAGS,
  out: flag.path(modelDir("llm"), "where the model and its card's figures go"),
  ...MODEL_FLAGS,
  ngramsOnly: flag.boolean("train the n-gram model alone (no encoder, no MLP)"),
  refit: flag.integer(10, "fit on train + calibration, calibrate on K-fold out-of-fold scores; 0: off", {
    min: 0,
  }),
  ensemble: flag.integer(1, "MLPs averaged into one (with --refit 0)", { min: 1 }),
  extra: flag.path("", "a folder of extra training rows, e.g. training/data/injection-extra"),
  plantDirect: flag.boolean("also plant each split's short direct attacks into its documents"),
  trainFraction: flag.number(1, "keep this share of training families (a learning curve)", {
    min: 0,
    max: 1,
  }),
  compare: flag.optionalPath("a model folder to score on the same sets, for the card"),
  dryRun: flag.boolean("train and print, write nothing"),
};
type Flags = Parsed<typeof FLAGS>;

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const { seed } = flags;
  const dim = 1 << flags.bits;
  // --ngrams-only trains no MLP, so nothing is refitted: n-grams on train, calibrated on the calibration split.
  const refit = flags.ngramsOnly ? 0 : flags.refit;
  if (refit > 0 && !(flags.averageFrom > 0))
    throw new Error("--refit needs --average-from (no calibration split is left to stop on)");
  if (refit > 0 && flags.ensemble > 1)
    throw new Error("--ensemble works with --refit 0 only (the refit fits one network per fold)");

  // Load and split.
  const extra = flags.extra ? { name: flags.extra, dir: resolve(REPO, flags.extra) } : undefined;
  const { splits, family } = loadSplits(
    {
      shared: flags.data,
      project: flags.project,
      round4: flags.round4,
      systemPrompts: flags.systemPrompts,
      plantInPrompts: flags.plantInPrompts,
    },
    {
      seed,
      ...(extra ? { extra } : {}),
      plantDirect: flags.plantDirect,
      refit,
      trainFraction: flags.trainFraction,
    },
    log,
  );
  console.log(summarize(splits));

  // Features and windows.
  const featured = {
    train: featureExamples(splits.train, dim),
    calibration: featureExamples(splits.calibration, dim),
  };
  const embedded = flags.ngramsOnly ? {} : await embedSplits(splits, log);

  // Fit the n-grams (and, with a refit, the MLP and the out-of-fold scores).
  const fit = fitContext(flags, family, log);
  const union: FitSet = {
    examples: [...splits.train, ...splits.calibration],
    featured: [...featured.train, ...featured.calibration],
    embedded: [...(embedded.train ?? []), ...(embedded.calibration ?? [])],
  };
  const oof = refit > 0 ? outOfFold(union, fit, refit, seed) : undefined;
  const refitted = refit > 0 ? fitStack(union, fit, seed) : undefined;
  const model = refitted?.model ?? fit.trainNgrams(featured.train);
  log(
    `n-grams trained (two rounds: whole texts, then with each attack's best window)${refit > 0 ? ` on train + calibration; ${refit}-fold out-of-fold scores for calibration` : ""}`,
  );
  // Calibrate. With a refit the calibration split is trained on too, and its texts are scored out
  // of fold: by fits that never saw their family (cross-fit.ts). The threshold is still chosen on
  // the same texts; out-of-fold scores of the training split are not used, because the split's
  // largest family (CyberSecEval, a fifth of it) would be judged by a fit that lost all of it at once.
  const oofOf = (scores: number[]) => {
    const byExample = new Map(union.examples.map((e, i) => [e, scores[i] as number]));
    return (e: Example) => byExample.get(e) as number;
  };
  const rules = thresholdRules(flags);
  const built = assemble({
    model,
    splits,
    embedded,
    featured: featured.train,
    fit,
    rules,
    ...(refitted && oof
      ? { refitted: { mlp: refitted.mlp, outOfFold: { ngram: oofOf(oof.ngram), mlp: oofOf(oof.mlp) } } }
      : {}),
    ngramsOnly: flags.ngramsOnly,
    members: flags.ensemble,
    trainedAt: new Date().toISOString().slice(0, 10),
    log,
  });
  const { header, classifier } = built;

  // Measure through the classifier that ships, on the weights that ship.
  const version = refit > 0 ? "v3" : "v2.1";
  const tables = await cardTables({
    splits,
    embedded,
    classifier,
    rules,
    thresholds: built.thresholds,
    version,
    outOfFold: oof !== undefined,
    ...(flags.compare ? { compare: flags.compare } : {}),
    ngramsOnly: flags.ngramsOnly,
  });

  // Write.
  if (!flags.dryRun) {
    const figures = `${trainingLine(flags, header.trainedAt, refit)}\n\n${summarize(splits)}\n\n${tables.join("\n\n")}`;
    writeModel(
      flags.out,
      { header, quantised: built.quantised, ...(built.mlp ? { mlp: built.mlp } : {}) },
      figures,
    );
    log(`wrote ${flags.out}`);
  }
  log("done");
}

/** Every split's engine windows of `text.clean` and their vectors, through the shared cache. */
async function embedSplits(splits: Record<Split, Example[]>, log: (m: string) => void) {
  const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
  const embedded: Partial<Record<Split, Embedded[]>> = {};
  for (const split of ["train", "calibration", "test", "heldout"] as const)
    embedded[split] = await embedExamples(splits[split], encoder);
  await encoder.close();
  log("embedded every split (engine windows of text.clean; cached per window)");
  return embedded;
}

/** The card's first line: how this model was trained. */
function trainingLine(flags: Flags, trainedAt: string, refit: number): string {
  const averaged = `MLP weights averaged over epochs ${flags.averageFrom}–${flags.mlpEpochs}`;
  return `Trained ${trainedAt}, seed ${flags.seed}, 2^${flags.bits} buckets, ${flags.hidden} hidden units${flags.ensemble > 1 ? ` × ${flags.ensemble} seeds (averaged)` : ""}${flags.extra ? `, extra data ${flags.extra}` : ""}${refit > 0 ? `, refitted on train + calibration (thresholds from ${refit}-fold out-of-fold scores; ${averaged})` : flags.averageFrom > 0 ? `, ${averaged}` : ""}.`;
}

runMain(import.meta.url, main);
