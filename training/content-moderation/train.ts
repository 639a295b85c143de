/**
 * Trains the content_moderation model and prints its held-out figures.
 *   npm run train:content-moderation -- [--data DIR] [--out DIR] [--seed N] [--no-embeddings]
 * Writes models/content-moderation/{model.json, weights.bin.gz, metrics.json}. See MODEL_CARD.md there.
 * Steps: out-of-fold logits on the training part → Platt scaling and a threshold sweep → final
 * heads on the whole training part → figures on the held-out part through the shipped weights.
 */
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadModerationModel } from "../../src/guardrails/content-moderation/model/index.js";
import { calibrate } from "../../src/guardrails/content-moderation/model/model.js";
import { rawScore } from "../../src/guardrails/content-moderation/model/raw-score.js";
import type { Platt } from "../../src/guardrails/content-moderation/model/weights.js";
import { embedTexts, type Vectors } from "./embed-cache.js";
import { binaryFigures, buryInBenign } from "./evaluate.js";
import { type HeadOptions, trainHeads } from "./heads.js";
import { atThreshold, fitPlatt, type Scored } from "./metrics.js";
import { BENIGN_SOURCES, report, testRows } from "./report.js";
import { buildPools, FOLDS } from "./splits.js";
import { writeModel } from "./write-model.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "../shared/datasets") },
    out: { type: "string", default: resolve(root, "models/content-moderation") },
    seed: { type: "string", default: "20261122" },
    "no-embeddings": { type: "boolean", default: false },
  },
});
const seed = Number(values.seed);
const started = performance.now();
const log = (...args: unknown[]) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s]`, ...args);

const dense = { epochs: 10, lr: 0.05, l2: 1e-5, seed };
const options: HeadOptions = {
  binary: { bits: 18, epochs: 6, lr: 0.2, l2: 1e-6, seed },
  category: { bits: 16, epochs: 6, lr: 0.2, l2: 1e-6, seed },
  embedding: { binary: { bits: 9, ...dense }, category: { bits: 9, ...dense } },
  windowWords: 40,
  positiveWeight: 1.5,
};

const pools = buildPools(values.data, root, seed);
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

let vectors: Vectors | undefined;
if (!values["no-embeddings"]) {
  const texts = [...pools.binary, ...pools.category, ...pools.sanity, ...buried].map((r) => r.text);
  vectors = (await embedTexts(texts, join(root, "node_modules/.cache/guardrail"), (m) => log(m))).vectors;
}

// Out-of-fold logits on the training part: what Platt scaling and the threshold sweep see.
const oof: { ngram: number; embedding: number | null; label: 0 | 1; source: string }[] = [];
for (let k = 0; k < FOLDS; k++) {
  const params = trainHeads(
    binaryTrain.filter((r) => r.fold !== k),
    categoryTrain.filter((r) => r.fold !== k),
    options,
    vectors,
  );
  for (const r of binaryTrain.filter((x) => x.fold === k)) {
    const raw = rawScore(params, r.text, vectors?.get(r.text));
    oof.push({ ngram: raw.ngram, embedding: raw.embedding, label: r.label ?? 0, source: r.source });
  }
  log(`fold ${k + 1}/${FOLDS} done`);
}
const labels = oof.map((o) => o.label);
const ngramPlatt = fitPlatt(
  oof.map((o) => o.ngram),
  labels,
);
const combinedPlatt: Platt | null = vectors
  ? fitPlatt(
      oof.map((o) => (o.ngram + (o.embedding ?? o.ngram)) / 2),
      labels,
    )
  : null;
const oofScores = oof.map((o) => ({
  score: calibrate({ ...o, categoryProbs: new Float64Array() }, ngramPlatt, combinedPlatt),
  label: o.label,
  source: o.source,
}));
const oofOf = (pick: (s: string) => boolean): Scored[] => oofScores.filter((o) => pick(o.source));
const oofGptfuzz = oofOf((s) => s === "gptfuzz");
const oofBenign = oofOf((s) => BENIGN_SOURCES.includes(s));
const oofToxic = oofOf((s) => s === "davidson" || s === "toxigen");

// Threshold: best mean F1 over GPTFuzz and toxicity, keeping FPR on ordinary answers ≤ 2%.
let threshold = 0.5;
let best = -1;
for (let t = 0.05; t <= 0.951; t += 0.01) {
  const objective = (atThreshold(oofGptfuzz, t).f1 + atThreshold(oofToxic, t).f1) / 2;
  if (atThreshold(oofBenign, t).fpr <= 0.02 && objective > best) {
    best = objective;
    threshold = Math.round(t * 100) / 100;
  }
}
log(`threshold ${threshold} (OOF objective ${best.toFixed(4)})`);

const finalParams = trainHeads(binaryTrain, categoryTrain, options, vectors);
const calibration = { ngram: ngramPlatt, combined: combinedPlatt };
const { bytes } = writeModel(values.out, finalParams, calibration, threshold);
log(`wrote ${values.out} (weights.bin.gz ${(bytes / 1024).toFixed(0)} KiB)`);

const model = await loadModerationModel(values.out);
const figures = {
  threshold,
  calibration,
  oof: {
    gptfuzz: binaryFigures(oofGptfuzz, threshold),
    toxicity: binaryFigures(oofToxic, threshold),
    benignFpr: atThreshold(oofBenign, threshold).fpr,
  },
  ngramOnly: report(model, tests, pools.sanity, buried, threshold),
  ...(vectors
    ? { withEmbeddings: report(model, tests, pools.sanity, buried, threshold, (t) => vectors.get(t)) }
    : {}),
};
console.log(JSON.stringify(figures, null, 2));
writeFileSync(join(values.out, "metrics.json"), `${JSON.stringify(figures, null, 2)}\n`);
log("done");
