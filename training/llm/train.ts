/**
 * Trains the `llm` guardrail's injection classifier and writes models/llm/{model.json,
 * weights.bin.gz}, then prints the held-out evaluation and splices it into MODEL_CARD.md.
 *   npm run train:llm -- [--data ../shared/datasets] [--project datasets] [--out models/llm]
 *                        [--bits 18] [--epochs 6] [--hidden 256] [--seed N] [--max-fpr 0.02]
 *                        [--ngrams-only] [--compare models-dir] [--dry-run]
 *                        [--threshold-rule pooled|balanced] [--source-min 50] [--source-fpr 0.05]
 *                        [--ensemble 1] [--extra training/data/injection-extra]
 *                        [--dropout 0.2] [--decay 1e-4] [--mlp-epochs 40] [--average-from N]
 *                        [--refit K]   (train on train + calibration; calibrate on K-fold out-of-fold scores)
 *                        [--train-fraction F]   (keep only this share of training families: a learning curve)
 *                        [--plant-direct]   (also plant each split's short direct attacks into its documents)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  createInjectionClassifier,
  type InjectionClassifier,
  type InjectionModelHeader,
  loadInjectionClassifier,
} from "../../src/guardrails/llm/classifier.js";
import { applyIsotonic, fitIsotonic } from "../../src/guardrails/llm/isotonic.js";
import { type Mlp, mlpValues } from "../../src/guardrails/llm/mlp.js";
import { createNgramScorer } from "../../src/guardrails/llm/ngram-scorer.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { dequantise, quantise, writeHeader, writeTable } from "../../src/models/weight-file.js";
import { hashRange } from "../../src/text/hash.js";
import { foldText } from "../../src/text/normalize.js";
import { type FitContext, type FitSet, fitStack, outOfFold } from "./cross-fit.js";
import { HELDOUT_SOURCES, loadPool } from "./data.js";
import { dedup } from "./dedup.js";
import { type Embedded, embedExamples } from "./embed.js";
import type { Example } from "./example.js";
import { addExtraToTrain, loadExtra } from "./extra-data.js";
import { type Featured, featureExamples, trainingItems } from "./items.js";
import { fitPlatt, type LinearModel, trainLogistic } from "./logistic.js";
import {
  metricsAt,
  type PooledRule,
  rocAuc,
  thresholdForBalancedFpr,
  thresholdForPooledFpr,
} from "./metrics.js";
import { plantDirectAttacks } from "./plant-direct.js";
import { markdownTable, ruleTable, slices, spliceCard } from "./report.js";
import { type Split, splitByFamily } from "./split.js";
import { stackExample } from "./stack.js";
import { maxWindowLogit, trainStage } from "./stage-mlp.js";
import { summarize } from "./summary.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "../shared/datasets") },
    project: { type: "string", default: resolve(root, "datasets") },
    out: { type: "string", default: resolve(root, "models/llm") },
    bits: { type: "string", default: "18" },
    epochs: { type: "string", default: "6" },
    rate: { type: "string", default: "0.1" },
    l2: { type: "string", default: "1e-6" },
    seed: { type: "string", default: "20261122" },
    "max-fpr": { type: "string", default: "0.02" },
    "dry-run": { type: "boolean", default: false },
    hidden: { type: "string", default: "256" },
    "ngrams-only": { type: "boolean", default: false },
    compare: { type: "string" },
    "threshold-rule": { type: "string", default: "pooled" },
    "source-min": { type: "string", default: "50" },
    "source-fpr": { type: "string", default: "0.05" },
    ensemble: { type: "string", default: "1" },
    extra: { type: "string", default: "" },
    "plant-direct": { type: "boolean", default: false },
    dropout: { type: "string", default: "0.2" },
    "train-fraction": { type: "string", default: "1" },
    // v3: 12 epochs with weights averaged from the 4th, fitted on train + calibration, thresholds
    // from 10-fold out-of-fold scores. `--refit 0 --average-from 0 --mlp-epochs 40` is v2.1's
    // early stopping on the calibration split.
    "average-from": { type: "string", default: "4" },
    "mlp-epochs": { type: "string", default: "12" },
    refit: { type: "string", default: "10" },
    decay: { type: "string", default: "1e-4" },
  },
});
const started = performance.now();
const seed = Number(values.seed);
const dim = 1 << Number(values.bits);
const log = (msg: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}`);

const pool = loadPool({ shared: values.data, project: values.project }, seed);
const { kept, family, dropped } = dedup(pool);
const { splits, leaked } = splitByFamily(kept, family, HELDOUT_SOURCES, seed);
if (values.extra) {
  const extra = addExtraToTrain(splits, loadExtra(resolve(root, values.extra), seed + 9));
  for (const e of extra.added) family.set(e, e.group);
  log(
    `extra data (${values.extra}): ${extra.added.length} training rows, ${extra.dropped} dropped as near-copies of calibration / test / held-out texts`,
  );
}
if (values["plant-direct"]) {
  // Training rows only. With --refit the calibration texts are trained on too, so their planted
  // copies join them; folds are by family, so a text is never scored by a fit on its own copy.
  const from = Number(values.refit) > 0 ? (["train", "calibration"] as const) : (["train"] as const);
  let added = 0;
  for (const [k, name] of from.entries()) {
    const made = plantDirectAttacks(splits[name], (e) => family.get(e) ?? e.group, seed + 11 + k);
    for (const [e, f] of made.family) family.set(e, f);
    splits.train.push(...made.planted);
    added += made.planted.length;
  }
  log(`planted ${added} short direct attacks into documents of their own split (training rows)`);
}
if (Number(values["train-fraction"]) < 1) {
  const keep = Number(values["train-fraction"]);
  splits.train = splits.train.filter((e) => {
    const f = family.get(e) ?? e.group;
    return hashRange(seed + 99, f, 0, f.length) / 4294967296 < keep;
  });
}
log(
  `${pool.length} examples; dropped ${dropped.duplicates} near-duplicates, ${dropped.conflicts} label conflicts, ${leaked} near-copies of held-out texts`,
);
console.log(summarize(splits));

const featured = {
  train: featureExamples(splits.train, dim),
  calibration: featureExamples(splits.calibration, dim),
  test: featureExamples(splits.test, dim),
  heldout: featureExamples(splits.heldout, dim),
};
const options = {
  dim,
  epochs: Number(values.epochs),
  rate: Number(values.rate),
  l2: Number(values.l2),
  seed,
};
const trainNgrams = (list: Featured[]): LinearModel => {
  const first = trainLogistic(trainingItems(list, seed), options);
  return trainLogistic(trainingItems(list, seed, first), options);
};
// `--ngrams-only` trains no MLP, so nothing is refitted: n-grams on train, calibrated on the calibration split.
const refit = values["ngrams-only"] ? 0 : Number(values.refit);
const averageFrom = Number(values["average-from"]);
if (refit > 0 && !(averageFrom > 0))
  throw new Error("--refit needs --average-from (no calibration split is left to stop on)");
if (refit > 0 && Number(values.ensemble) > 1)
  throw new Error("--ensemble works with --refit 0 only (the refit fits one network per fold)");
const embedded: Partial<Record<Split, Embedded[]>> = {};
if (!values["ngrams-only"]) {
  const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
  for (const split of ["train", "calibration", "test", "heldout"] as const)
    embedded[split] = await embedExamples(splits[split], encoder);
  await encoder.close();
  log("embedded every split (engine windows of text.clean; cached per window)");
}
const famOf = (e: Example) => family.get(e) ?? e.group;
const mlpOptions = {
  hidden: Number(values.hidden),
  rate: 1e-3,
  decay: Number(values.decay),
  dropout: Number(values.dropout),
  batch: 64,
  maxEpochs: Number(values["mlp-epochs"]),
  patience: 4,
  seed,
  ...(averageFrom > 0 ? { averageFrom } : {}),
};
const union: FitSet = {
  examples: [...splits.train, ...splits.calibration],
  featured: [...featured.train, ...featured.calibration],
  embedded: [...(embedded.train ?? []), ...(embedded.calibration ?? [])],
};
const fitContext: FitContext = { dim, family: famOf, trainNgrams, mlp: mlpOptions, log };
const oof = refit > 0 ? outOfFold(union, fitContext, refit, seed) : undefined;
const refitted = refit > 0 ? fitStack(union, fitContext, seed) : undefined;
const model = refitted?.model ?? trainNgrams(featured.train);
log(
  `n-grams trained (two rounds: whole texts, then with each attack's best window)${refit > 0 ? ` on train + calibration; ${refit}-fold out-of-fold scores for calibration` : ""}`,
);

// Quantise first, so everything below measures the weights that ship.
const { scale, values: quantised } = quantise(model.weights);
const shipped = dequantise(quantised, scale);
const ngram = createNgramScorer(dim, shipped, model.bias);
const maxFpr = Number(values["max-fpr"]);
// With --refit the calibration split is trained on too, and its texts are scored out of fold: by
// fits that never saw their family (cross-fit.ts). The threshold is still chosen on the same texts;
// out-of-fold scores of the training split are not used, because the split's largest family
// (CyberSecEval, a fifth of it) would be judged by a fit that lost all of it at once.
const calibration = splits.calibration.filter((e) => e.kind !== "harmful-plain");
const oofOf = (scores: number[]) => {
  const byExample = new Map(union.examples.map((e, i) => [e, scores[i] as number]));
  return (e: Example) => byExample.get(e) as number;
};
const MIN_SOURCE = 20;
const PRIOR = 0.1;

const rule = values["threshold-rule"];
if (rule !== "pooled" && rule !== "balanced")
  throw new Error(`--threshold-rule: pooled or balanced, not ${rule}`);
const pooledRule: PooledRule = {
  maxFpr,
  minSource: Number(values["source-min"]),
  maxSourceFpr: Number(values["source-fpr"]),
};
type Rule = "pooled" | "balanced";

/**
 * Isotonic calibration fitted with the classes weighted equally, then stated for a population in
 * which one text in ten is an attack (PRIOR): a plain question lands near 0, an override near 1.
 * Platt is fitted too, for the n-gram header field v1 readers expect. Both threshold rules are
 * computed on the calibrated score of the calibration split; `--threshold-rule` picks the bundled one:
 * - "pooled" (default): the lowest threshold whose FPR over all benign calibration texts is
 *   ≤ max-fpr, with no source of ≥ source-min benign texts above source-fpr;
 * - "balanced" (v2 as first shipped): FPR averaged over sources with equal weight ≤ max-fpr.
 */
const calibrate = (rawOf: (e: Example, i: number) => number) => {
  const z = calibration.map(rawOf);
  const labels = calibration.map((e) => e.label);
  const platt = fitPlatt(z, labels, 0.5);
  const isotonic = fitIsotonic(z, labels, PRIOR);
  // For the balanced rule, sources with fewer than MIN_SOURCE benign texts in the split are
  // pooled: one text of three would otherwise count as a 33% FPR and decide the threshold alone.
  const counts = new Map<string, number>();
  for (const e of calibration) if (e.label === 0) counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
  const bySource = new Map<string, number[]>();
  const byRawSource = new Map<string, number[]>();
  calibration.forEach((e, i) => {
    if (e.label === 1) return;
    const p = applyIsotonic(isotonic, z[i] as number);
    const key = (counts.get(e.source) ?? 0) >= MIN_SOURCE ? e.source : "(small sources)";
    bySource.set(key, [...(bySource.get(key) ?? []), p]);
    byRawSource.set(e.source, [...(byRawSource.get(e.source) ?? []), p]);
  });
  // Rounded up, never down: rounding down could flag benign texts tied at the cut the rule excluded.
  const up = (t: number) => Math.min(1, Math.ceil(t * 1e4 - 1e-9) / 1e4);
  const thresholds: Record<Rule, number> = {
    balanced: up(thresholdForBalancedFpr([...bySource.values()], maxFpr)),
    pooled: up(thresholdForPooledFpr([...byRawSource.values()], pooledRule)),
  };
  const threshold = thresholds[rule];
  const benign = [...byRawSource.values()].flat();
  const flagged = benign.filter((x) => x >= threshold).length;
  const fpr = [...byRawSource]
    .map(([s, xs]) => [s, xs.filter((x) => x >= threshold).length, xs.length] as const)
    .filter(([, k]) => k > 0)
    .map(([s, k, n]) => `${s} ${k}/${n}`);
  log(
    `thresholds: pooled ${thresholds.pooled}, balanced ${thresholds.balanced}; at ${rule} ${threshold}: ` +
      `${flagged}/${benign.length} benign calibration texts flagged (${fpr.join(", ")})`,
  );
  const top = calibration
    .map((e, i) => ({ e, z: z[i] as number }))
    .filter((r) => r.e.label === 0)
    .sort((a, b) => b.z - a.z)
    .slice(0, 12);
  for (const r of top)
    log(`  benign ${r.z.toFixed(2)} [${r.e.source}] ${r.e.text.slice(0, 100).replace(/\s+/gu, " ")}`);
  return { platt, isotonic, threshold, thresholds, sources: bySource.size };
};
const ngramCal = calibrate(oof ? oofOf(oof.ngram) : (e) => ngram(foldText(e.text)).z);
log(`n-grams alone: ${ngramCal.isotonic.z.length} isotonic knots, threshold ${ngramCal.threshold}`);

const header: InjectionModelHeader = {
  format: 2,
  dim,
  scale,
  bias: model.bias,
  platt: ngramCal.platt,
  isotonic: ngramCal.isotonic,
  threshold: ngramCal.threshold,
  trainedAt: new Date().toISOString().slice(0, 10),
};
let mlp: Mlp | undefined;
let mlpThresholds: Record<Rule, number> | undefined;
if (!values["ngrams-only"]) {
  const folds = 4;
  const foldOf = (e: Example) => hashRange(seed + 17, famOf(e), 0, famOf(e).length) % folds;
  const stage = refitted
    ? { mlp: refitted.mlp, epochs: mlpOptions.maxEpochs }
    : trainStage(
        splits.train,
        embedded.train as Embedded[],
        { examples: splits.calibration, embedded: embedded.calibration as Embedded[], scorer: ngram },
        famOf,
        folds,
        (k) => {
          const m = trainNgrams(featured.train.filter((f) => foldOf(f.example) !== k));
          return createNgramScorer(dim, m.weights, m.bias);
        },
        mlpOptions,
        log,
        Number(values.ensemble),
      );
  mlp = stage.mlp;
  const calEmb = new Map(
    splits.calibration.map((e, i) => [e, (embedded.calibration as Embedded[])[i] as Embedded]),
  );
  const net = mlp;
  const mlpRaw = oof
    ? oofOf(oof.mlp)
    : (e: Example) => maxWindowLogit(net, stackExample(e, calEmb.get(e) as Embedded, ngram));
  const mlpCal = calibrate(mlpRaw);
  header.mlp = {
    input: mlp.input,
    hidden: mlp.hidden,
    vectorDim: 512,
    isotonic: mlpCal.isotonic,
    threshold: mlpCal.threshold,
  };
  log(
    `MLP: ${stage.epochs} epochs; ${mlpCal.isotonic.z.length} isotonic knots, ` +
      `threshold ${mlpCal.threshold} (${rule} rule)`,
  );
  // The figure changes are judged by before anything is reported on the test split.
  const cal = calibration.map((e) => ({ label: e.label, score: applyIsotonic(mlpCal.isotonic, mlpRaw(e)) }));
  const m = metricsAt(cal, mlpCal.threshold);
  log(
    `calibration split${oof ? " (out of fold)" : ""} at the threshold: F1 ${(m.f1 ?? 0).toFixed(3)} recall ${(m.recall ?? 0).toFixed(3)} FPR ${(m.fpr ?? 0).toFixed(4)} ` +
      `recall@1%FPR ${(m.recallAt1Fpr ?? 0).toFixed(3)} ` +
      `AUC ${(rocAuc(cal) ?? 0).toFixed(4)} (hidden ${mlp.hidden}, ${Number(values.ensemble)} member(s))`,
  );
  const indirect = calibration.flatMap((e, i) =>
    e.kind === "indirect" ? [cal[i] as { score: number }] : [],
  );
  const caught = indirect.filter((r) => r.score >= mlpCal.threshold).length;
  log(`calibration split indirect recall: ${caught}/${indirect.length}`);
  mlpThresholds = mlpCal.thresholds;
}

// Everything below is measured through the classifier that ships, on the weights that ship.
const classifier = createInjectionClassifier(header, shipped, mlp);
type Mode = "full" | "ngrams";
const evaluate = (c: InjectionClassifier, split: "test" | "heldout", mode: Mode) =>
  splits[split].map((example, i) => {
    const emb = mode === "full" ? embedded[split]?.[i] : undefined;
    return { example, score: c.score(example.text, emb) };
  });
const report = (name: string, c: InjectionClassifier, mode: Mode, threshold: number) => {
  const table = markdownTable(slices(evaluate(c, "test", mode), evaluate(c, "heldout", mode), threshold));
  console.log(`\n### ${name} (threshold ${threshold})\n\n${table}`);
  return table;
};
const ruleLabel: Record<Rule, string> = {
  pooled: `pooled FPR ≤ ${maxFpr}, sources ≥ ${pooledRule.minSource} texts ≤ ${pooledRule.maxSourceFpr}`,
  balanced: `source-averaged FPR ≤ ${maxFpr}`,
};
const compareRules = (name: string, c: InjectionClassifier, mode: Mode, thresholds: Record<Rule, number>) => {
  const [test, heldout] = [evaluate(c, "test", mode), evaluate(c, "heldout", mode)];
  const table = ruleTable(
    (["balanced", "pooled"] as const).map((r) => ({
      name: `${r}${r === rule ? " (bundled)" : ""}: ${ruleLabel[r]}`,
      threshold: thresholds[r],
      rows: slices(test, heldout, thresholds[r]),
    })),
  );
  console.log(`\n### ${name}: threshold rules\n\n${table}`);
  return `### ${name}: threshold rules (calibration split${oof ? ", out of fold" : ""}; same weights)\n\n${table}`;
};
const version = refit > 0 ? "v3" : "v2.1";
const tables: string[] = [];
if (mlp && mlpThresholds) tables.push(compareRules(`${version} full`, classifier, "full", mlpThresholds));
tables.push(compareRules(`${version} n-grams only`, classifier, "ngrams", ngramCal.thresholds));
if (mlp)
  tables.push(
    `### ${version}: MLP over USE-lite windows + n-gram logits + cues (bundled; threshold ${classifier.threshold})\n\n${report("v2 full", classifier, "full", classifier.threshold)}`,
  );
tables.push(
  `### ${version} fallback: n-grams only, no encoder (threshold ${header.threshold})\n\n${report("v2 n-grams only", classifier, "ngrams", header.threshold)}`,
);
if (values.compare) {
  // A format-2 model with an MLP is compared through its full path (same windows and vectors).
  const other = await loadInjectionClassifier(values.compare);
  const mode: Mode = other.header.mlp && !values["ngrams-only"] ? "full" : "ngrams";
  const name = `${other.header.mlp ? "previous model" : "v1"} (${values.compare}, ${mode === "full" ? "full" : "n-grams"}; threshold ${other.threshold})`;
  tables.push(`### ${name}\n\n${report(name, other, mode, other.threshold)}`);
}

if (!values["dry-run"]) {
  mkdirSync(values.out, { recursive: true });
  writeHeader(join(values.out, "model.json"), header);
  writeTable(join(values.out, "weights.bin.gz"), quantised);
  if (mlp) writeTable(join(values.out, "mlp.bin.gz"), mlpValues(mlp));
  const card = join(values.out, "MODEL_CARD.md");
  const body = `Trained ${header.trainedAt}, seed ${seed}, 2^${values.bits} buckets, ${values.hidden} hidden units${Number(values.ensemble) > 1 ? ` × ${values.ensemble} seeds (averaged)` : ""}${values.extra ? `, extra data ${values.extra}` : ""}${refit > 0 ? `, refitted on train + calibration (thresholds from ${refit}-fold out-of-fold scores; MLP weights averaged over epochs ${values["average-from"]}–${values["mlp-epochs"]})` : averageFrom > 0 ? `, MLP weights averaged over epochs ${values["average-from"]}–${values["mlp-epochs"]}` : ""}.\n\n${summarize(splits)}\n\n${tables.join("\n\n")}`;
  writeFileSync(
    card,
    spliceCard(existsSync(card) ? readFileSync(card, "utf8") : "# llm injection classifier\n", body),
  );
  log(`wrote ${values.out}`);
}
log("done");
