/**
 * Leave-one-source-out for the moderation model's unsafe/safe verdict (issue 12): each source of
 * its training data held out in turn. The model is trained on every other source exactly as
 * train.ts trains the shipped one (n-gram and embedding heads, Platt scaling and the threshold on
 * out-of-fold scores), then scored on the held-out source, which it never saw in any step. The
 * macro average over held-out sources is the criterion issue 12 selects by; a split of pooled
 * data has overstated quality every round.
 *
 *   npx tsx training/content-moderation/loso.ts [--data DIR] [--no-embeddings] [--only SOURCE]
 */
import { calibrate as calibrated } from "../../src/guardrails/content-moderation/model/model.js";
import { rawScore } from "../../src/guardrails/content-moderation/model/raw-score.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { calibrate, outOfFoldLogits } from "./calibrate.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures } from "./evaluate.js";
import { trainHeads } from "./heads.js";
import { buildPools } from "./splits.js";
import { headOptions } from "./train-options.js";

const USAGE = "npx tsx training/content-moderation/loso.ts [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  noEmbeddings: flag.boolean("train and score the n-gram heads alone"),
  only: flag.string("", "hold out this source alone"),
};

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const options = headOptions(SEED);
  const pools = buildPools(flags.data, REPO, SEED);
  const vectors = flags.noEmbeddings
    ? undefined
    : (
        await embedTexts(
          [...pools.binary, ...pools.category].map((r) => r.text),
          log,
        )
      ).vectors;
  const sources = [...new Set(pools.binary.map((r) => r.source))].filter(
    (s) => !flags.only || s === flags.only,
  );
  const rows: string[] = [];
  const f1s: number[] = [];
  const fprs: number[] = [];
  for (const held of sources) {
    // Every row of the other sources that has a fold (GPTFuzz's test questions have none).
    const train = pools.binary.filter((r) => r.source !== held && r.fold >= 0);
    const category = pools.category.filter((r) => r.source !== held && r.fold >= 0);
    const quiet = () => {};
    const calibration = calibrate(
      outOfFoldLogits(train, category, options, vectors, quiet),
      !!vectors,
      quiet,
    );
    const params = trainHeads(train, category, options, vectors);
    const scored = pools.binary
      .filter((r) => r.source === held)
      .map((r) => {
        const raw = rawScore(params, r.text, vectors?.get(r.text));
        return {
          score: calibrated(raw, calibration.platt.ngram, calibration.platt.combined),
          label: r.label ?? 0,
        };
      });
    const f = binaryFigures(scored, calibration.threshold);
    const both = f.positives > 0 && f.positives < f.n;
    if (both) f1s.push(f.f1);
    if (f.positives < f.n) fprs.push(f.fpr);
    rows.push(
      `| ${held} | ${f.n} | ${f.positives} | ${calibration.threshold} | ${both ? fmt(f.rocAuc) : "–"} | ${both ? fmt(f.precision) : "–"} | ${f.positives ? fmt(f.recall) : "–"} | ${both ? fmt(f.f1) : "–"} | ${f.positives < f.n ? fmt(f.fpr) : "–"} |`,
    );
    log(`held out ${held}`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log("\n| held-out source | n | unsafe | threshold | ROC-AUC | precision | recall | F1 | FPR |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(r);
  console.log(
    `\nmacro F1 over the ${f1s.length} held-out sources with both labels ${fmt(mean(f1s))}; macro FPR over the ${fprs.length} with safe rows ${fmt(mean(fprs))}`,
  );
}

runMain(import.meta.url, main);
