/**
 * The shipped moderation model on public sources it was never trained on, one table row each:
 * what issue 12 asks to report before and after its retraining. Scored through the model's own
 * classify(), at its bundled threshold, with the encoder's vectors unless --no-embeddings.
 *
 *   npx tsx training/content-moderation/unseen.ts [--data DIR] [--model DIR] [--no-embeddings]
 */
import { loadModerationModel } from "../../src/guardrails/content-moderation/model/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { modelDir, SHARED_DATASETS } from "../lib/paths.js";
import { loadUnseenSources } from "./data-unseen.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures, scoreAll } from "./evaluate.js";

const USAGE = "npx tsx training/content-moderation/unseen.ts [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  model: flag.path(modelDir("content-moderation"), "the model to measure"),
  noEmbeddings: flag.boolean("score with the n-gram heads alone"),
};

const pct = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const model = await loadModerationModel(flags.model);
  const sources = loadUnseenSources(flags.data);
  log(`${sources.length} sources, ${sources.reduce((n, s) => n + s.rows.length, 0)} rows`);
  const vectors = flags.noEmbeddings
    ? undefined
    : (
        await embedTexts(
          sources.flatMap((s) => s.rows.map((r) => r.text)),
          log,
        )
      ).vectors;
  const lookup = vectors ? (t: string) => vectors.get(t) : undefined;
  console.log(`\n| source | what | n | unsafe | ROC-AUC | precision | recall | F1 | FPR |`);
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  const f1s: number[] = [];
  for (const s of sources) {
    const f = binaryFigures(scoreAll(model, s.rows, lookup), model.threshold);
    const hasBoth = f.positives > 0 && f.positives < f.n;
    if (hasBoth) f1s.push(f.f1);
    console.log(
      `| ${s.name} | ${s.what} | ${f.n} | ${f.positives} | ${pct(f.rocAuc)} | ${hasBoth ? pct(f.precision) : "–"} | ${pct(f.recall)} | ${hasBoth ? pct(f.f1) : "–"} | ${hasBoth ? pct(f.fpr) : "–"} |`,
    );
  }
  const macro = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  console.log(
    `\nthreshold ${model.threshold}; macro F1 over the ${f1s.length} sources with both labels: ${macro.toFixed(3)}`,
  );
}

runMain(import.meta.url, main);
