/**
 * Trains the pii sequence tagger (averaged perceptron, greedy BIO decoding) and writes
 * models/pii/tagger/{model.json,weights.bin.gz}.
 *   npm run train:pii -- [--holdout K] [--out DIR] [--epochs N] [--bits B] [--seed S] [--repeat N] [--no-wnut]
 * Trains on the dev split of generated_large (its first 40%), generated_small, WNUT-17 train and
 * nannigalaxy. --holdout K leaves fifth K of dev out and scores it (eval-pii --split fold:K).
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { loadLexicon } from "../../src/guardrails/pii/lexicon.js";
import {
  createFeaturizer,
  MAX_FEATURES,
  TRANSITION_FEATURES,
  transitionRows,
} from "../../src/guardrails/pii/tagger/features.js";
import { loadTaggerModel, type TaggerHeader } from "../../src/guardrails/pii/tagger/model.js";
import { createTagger } from "../../src/guardrails/pii/tagger/tagger.js";
import { allowed, TAG_COUNT, TAGGED_ENTITIES, tagOf } from "../../src/guardrails/pii/tagger/tags.js";
import { createTokens, tokenizeInto } from "../../src/guardrails/pii/tagger/tokenize.js";
import { quantise, writeHeader, writeTable } from "../../src/models/weight-file.js";
import { type LabelledText, loadNannigalaxy, loadPresidio, loadWnut, taggedOnly } from "./data.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "../shared/datasets/pii") },
    out: { type: "string", default: resolve(root, "models/pii/tagger") },
    holdout: { type: "string" },
    epochs: { type: "string", default: "8" },
    bits: { type: "string", default: "18" },
    seed: { type: "string", default: "20261122" },
    "no-wnut": { type: "boolean", default: false },
    repeat: { type: "string", default: "3" },
  },
});
const started = performance.now();
const large = `${values.data}/presidio-research/generated_large.json`;
// --holdout K (0–4) keeps fifth K of dev out of training, for tuning by cross-validation.
const fold = values.holdout === undefined ? -1 : Number(values.holdout);
const foldFrom = fold * 0.08;
const devRows =
  fold < 0
    ? loadPresidio(large, 0, 0.4)
    : [...loadPresidio(large, 0, foldFrom), ...loadPresidio(large, foldFrom + 0.08, 0.4)];
const sources: [string, LabelledText[]][] = [
  ["generated_large dev", devRows],
  ["generated_small", loadPresidio(`${values.data}/presidio-research/generated_small.json`)],
  ["nannigalaxy", loadNannigalaxy(`${values.data}/nannigalaxy/pii_syn_nano_en.json`)],
];
if (!values["no-wnut"]) sources.push(["wnut17 train", loadWnut(`${values.data}/wnut17/wnut17train.conll`)]);

const lexicon = loadLexicon();
const featurizer = createFeaturizer(lexicon);
const tokens = createTokens();
const dim = 1 << Number(values.bits);
const mask = dim - 1;

/** A training example: its static feature rows (already masked) and gold tags. */
interface Example {
  rows: Int32Array;
  counts: Int32Array;
  shapeKeys: Int32Array;
  gold: Int32Array;
}

function toExample(t: LabelledText): Example {
  tokenizeInto(t.text, tokens);
  featurizer.prepare(t.text, tokens);
  const n = tokens.count;
  const gold = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = t.spans.find(
      (g) => g.start < (tokens.ends[i] as number) && (tokens.starts[i] as number) < g.end,
    );
    if (!s) continue;
    const entity = TAGGED_ENTITIES.indexOf(s.label as (typeof TAGGED_ENTITIES)[number]);
    const inside =
      i > 0 && (tokens.starts[i - 1] as number) >= s.start && (tokens.ends[i - 1] as number) <= s.end;
    gold[i] = tagOf(entity, inside);
  }
  const rows = featurizer.rows.slice(0, n * MAX_FEATURES).map((h) => h & mask);
  return { rows, counts: featurizer.counts.slice(0, n), shapeKeys: featurizer.shapeKeys.slice(0, n), gold };
}

const examples: Example[] = [];
for (const [name, texts] of sources) {
  const before = examples.length;
  // WNUT-17 tweets outnumber the PII texts; --repeat N shows each PII text N times per epoch.
  const times = name.startsWith("wnut") ? 1 : Number(values.repeat);
  for (const t of taggedOnly(texts)) for (let r = 0; r < times; r++) examples.push(toExample(t));
  const toks = examples.slice(before).reduce((a, e) => a + e.gold.length, 0);
  console.log(
    `${name.padEnd(20)} ${String(texts.length).padStart(5)} texts ${String(toks).padStart(7)} tokens`,
  );
}

// Averaged perceptron with lazy averaging: `totals` accumulate weight × time since last change.
const weights = new Float64Array(dim * TAG_COUNT);
const totals = new Float64Array(dim * TAG_COUNT);
const stamps = new Float64Array(dim * TAG_COUNT);
let clock = 1;
function bump(row: number, tag: number, v: number): void {
  const k = row * TAG_COUNT + tag;
  totals[k] = (totals[k] as number) + (clock - (stamps[k] as number)) * (weights[k] as number);
  stamps[k] = clock;
  weights[k] = (weights[k] as number) + v;
}

let seed = Number(values.seed) >>> 0;
// mulberry32: a fixed-seed shuffle so a retrain gives the same weights.
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const scores = new Float64Array(TAG_COUNT);
const trans = new Int32Array(TRANSITION_FEATURES);
for (let epoch = 1; epoch <= Number(values.epochs); epoch++) {
  for (let i = examples.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [examples[i], examples[j]] = [examples[j] as Example, examples[i] as Example];
  }
  let correct = 0;
  let total = 0;
  for (const ex of examples) {
    let previous = 0;
    let previous2 = 0;
    for (let i = 0; i < ex.gold.length; i++) {
      scores.fill(0);
      const count = ex.counts[i] as number;
      const rowsOf = (f: number) =>
        f < count ? (ex.rows[i * MAX_FEATURES + f] as number) : (trans[f - count] as number) & mask;
      transitionRows(previous, previous2, ex.shapeKeys[i] as number, trans);
      for (let f = 0; f < count + TRANSITION_FEATURES; f++) {
        const base = rowsOf(f) * TAG_COUNT;
        for (let t = 0; t < TAG_COUNT; t++) scores[t] = (scores[t] as number) + (weights[base + t] as number);
      }
      let best = 0;
      for (let t = 1; t < TAG_COUNT; t++)
        if (allowed(previous, t) && (scores[t] as number) > (scores[best] as number)) best = t;
      const g = ex.gold[i] as number;
      // An I tag that cannot follow the predicted history is learned as the B tag that could.
      const target = allowed(previous, g) ? g : g - 1;
      if (best !== target) {
        for (let f = 0; f < count + TRANSITION_FEATURES; f++) {
          bump(rowsOf(f), target, 1);
          bump(rowsOf(f), best, -1);
        }
      } else correct++;
      total++;
      clock++;
      previous2 = previous;
      previous = best;
    }
  }
  console.log(`epoch ${epoch}: training token accuracy ${(correct / total).toFixed(4)}`);
}

for (let k = 0; k < weights.length; k++) {
  totals[k] = (totals[k] as number) + (clock - (stamps[k] as number)) * (weights[k] as number);
  weights[k] = (totals[k] as number) / clock;
}
const { scale, values: quantised } = quantise(weights);
const header: TaggerHeader = { format: 1, dim, tags: TAG_COUNT, scale };
mkdirSync(values.out, { recursive: true });
writeHeader(`${values.out}/model.json`, {
  ...header,
  seed: Number(values.seed),
  epochs: Number(values.epochs),
  trained: "2026-11-22",
});
const packed = writeTable(`${values.out}/weights.bin.gz`, quantised);
const nonzero = quantised.length - quantised.filter((v) => v === 0).length;
console.log(
  `trained in ${((performance.now() - started) / 1000).toFixed(1)} s; ${nonzero} non-zero weights; weights.bin.gz ${(packed / 1024).toFixed(0)} KiB`,
);

// Held-out figures: the tagger alone, a prediction counting when it overlaps a gold span of its type.
const tag = createTagger(loadTaggerModel(pathToFileURL(`${values.out}/`)), lexicon);
function score(name: string, texts: readonly LabelledText[]): void {
  const stats = new Map<string, { tp: number; predicted: number; found: number; support: number }>();
  const get = (k: string) =>
    stats.get(k) ??
    stats.set(k, { tp: 0, predicted: 0, found: 0, support: 0 }).get(k) ?? {
      tp: 0,
      predicted: 0,
      found: 0,
      support: 0,
    };
  const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
    a.start < b.end && b.start < a.end;
  for (const t of texts) {
    const predicted = tag(t.text);
    for (const p of predicted) {
      const s = get(p.label);
      s.predicted++;
      if (t.spans.some((g) => g.label === p.label && overlap(g, p))) s.tp++;
    }
    for (const g of t.spans) {
      const s = get(g.label);
      s.support++;
      if (predicted.some((p) => p.label === g.label && overlap(g, p))) s.found++;
    }
  }
  console.log(`${name}: tagger alone, per span (prec. / recall / support)`);
  for (const [k, s] of [...stats].sort())
    console.log(
      `  ${k.padEnd(14)} ${(s.tp / s.predicted).toFixed(3)}  ${(s.found / s.support).toFixed(3)}  ${s.support}`,
    );
}
if (fold >= 0)
  score(`held-out fold ${fold} of dev`, taggedOnly(loadPresidio(large, foldFrom, foldFrom + 0.08)));
score("WNUT-17 dev (emerging.dev.conll)", loadWnut(`${values.data}/wnut17/emerging.dev.conll`));
