/**
 * Trains the `llm` guardrail's injection classifier and writes models/llm/{model.json,
 * weights.bin.gz}, then prints the held-out evaluation and splices it into MODEL_CARD.md.
 *   npm run train:llm -- [--data ../shared/datasets] [--project datasets] [--out models/llm]
 *                        [--bits 18] [--epochs 6] [--seed N] [--max-fpr 0.02] [--dry-run]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type { InjectionModelHeader } from "../../src/guardrails/llm/classifier.js";
import { HELDOUT_SOURCES, loadPool } from "./data.js";
import { dedup } from "./dedup.js";
import { trainEmbeddingModel } from "./embedding-model.js";
import { featureExamples, maxLogit, trainingItems } from "./items.js";
import { fitPlatt, sigmoid, trainLogistic } from "./logistic.js";
import { thresholdForBalancedFpr } from "./metrics.js";
import { markdownTable, slices, spliceCard } from "./report.js";
import { splitByFamily } from "./split.js";
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
    embeddings: { type: "boolean", default: false },
  },
});
const started = performance.now();
const seed = Number(values.seed);
const dim = 1 << Number(values.bits);
const log = (msg: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}`);

const pool = loadPool({ shared: values.data, project: values.project }, seed);
const { kept, family, dropped } = dedup(pool);
const { splits, leaked } = splitByFamily(kept, family, HELDOUT_SOURCES, seed);
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
const first = trainLogistic(trainingItems(featured.train, seed), options);
const model = trainLogistic(trainingItems(featured.train, seed, first), options);
log("trained (two rounds: whole texts, then with each attack's best window)");

// Quantise first, so everything below measures the weights that ship.
let max = 0;
for (const w of model.weights) max = Math.max(max, Math.abs(w));
const scale = max / 32767 || 1;
const quantised = Int16Array.from(model.weights, (w) => Math.round(w / scale));
const shipped = { weights: Float64Array.from(quantised, (q) => q * scale), bias: model.bias };

const calibration = featured.calibration.filter((f) => f.example.kind !== "harmful-plain");
const calZ = calibration.map((f) => maxLogit(f, shipped).z);
// Probabilities assume one text in ten is an attack: a plain question then scores near 0.
const PRIOR = 0.1;
const platt = fitPlatt(
  calZ,
  calibration.map((f) => f.example.label),
  PRIOR,
);
const calibrated = (z: number) => sigmoid(platt.a * z + platt.b);
const benign = new Map<string, number[]>();
calibration.forEach((f, i) => {
  if (f.example.label === 1) return;
  benign.set(f.example.source, [...(benign.get(f.example.source) ?? []), calibrated(calZ[i] as number)]);
});
const threshold = Number(thresholdForBalancedFpr([...benign.values()], Number(values["max-fpr"])).toFixed(4));
log(
  `Platt a=${platt.a.toFixed(3)} b=${platt.b.toFixed(3)}; threshold ${threshold} ` +
    `(mean FPR over ${benign.size} benign calibration sources ≤ ${values["max-fpr"]})`,
);

const evaluate = (list: typeof featured.test) =>
  list.map((f) => ({ example: f.example, score: calibrated(maxLogit(f, shipped).z) }));
const table = markdownTable(slices(evaluate(featured.test), evaluate(featured.heldout), threshold));
console.log(table);

if (values.embeddings) {
  // Measured, not shipped (see MODEL_CARD.md): USE-lite alone, and averaged with the n-grams.
  const emb = await trainEmbeddingModel(splits, seed);
  log(`embedding model trained; Platt a=${emb.platt.a.toFixed(3)} b=${emb.platt.b.toFixed(3)}`);
  const ngram = {
    calibration: evaluate(featured.calibration),
    test: evaluate(featured.test),
    heldout: evaluate(featured.heldout),
  };
  for (const [name, mix] of [
    ["USE-lite only", (_n: number, e: number) => e],
    ["average of n-gram and USE-lite", (n: number, e: number) => (n + e) / 2],
  ] as const) {
    const combine = (split: "calibration" | "test" | "heldout") =>
      ngram[split].map((r, i) => ({
        example: r.example,
        score: mix(r.score, emb.scores[split][i] as number),
      }));
    const bySource = new Map<string, number[]>();
    for (const r of combine("calibration")) {
      if (r.example.label === 0 && r.example.kind !== "harmful-plain")
        bySource.set(r.example.source, [...(bySource.get(r.example.source) ?? []), r.score]);
    }
    const t = thresholdForBalancedFpr([...bySource.values()], Number(values["max-fpr"]));
    console.log(`\n${name}: threshold ${t.toFixed(4)}`);
    console.log(markdownTable(slices(combine("test"), combine("heldout"), t).slice(0, 7)));
  }
}

const header: InjectionModelHeader = {
  format: 1,
  dim,
  scale,
  bias: model.bias,
  platt,
  threshold,
  trainedAt: new Date().toISOString().slice(0, 10),
};
if (!values["dry-run"]) {
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, "model.json"), `${JSON.stringify(header, null, 2)}\n`);
  writeFileSync(join(values.out, "weights.bin.gz"), gzipSync(Buffer.from(quantised.buffer), { level: 9 }));
  const card = join(values.out, "MODEL_CARD.md");
  const body = `Trained ${header.trainedAt}, seed ${seed}, 2^${values.bits} buckets, threshold ${threshold}.\n\n${summarize(splits)}\n\n${table}`;
  writeFileSync(
    card,
    spliceCard(existsSync(card) ? readFileSync(card, "utf8") : "# llm injection classifier\n", body),
  );
  log(`wrote ${values.out}`);
}
log("done");
