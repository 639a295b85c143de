/**
 * How a profile's `categories` list should read P(category | unsafe): compares the argmax rule with
 * "the listed categories hold at least t of it", for the 13 lists that allow one category and the
 * 13 that flag only one. Two readings: the shipped weights on the category-labelled rows (in-sample:
 * it was trained on them), and an n-gram category head trained without the held-out part of the
 * pooled split (splits.ts, `holdout`) on that part. Figures in README.md (content_moderation).
 *   node --import tsx training/content-moderation/measure-categories.ts
 */

import {
  MODERATION_CATEGORIES,
  type ModerationCategory,
} from "../../src/guardrails/content-moderation/model/categories.js";
import { loadModerationModel } from "../../src/guardrails/content-moderation/model/index.js";
import { scoreUnits } from "../../src/guardrails/content-moderation/model/raw-score.js";
import { trainSoftmax } from "../lib/logistic.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { categorySamples, unitFeatures } from "./heads.js";
import { buildPools } from "./splits.js";
import { headOptions } from "./train-options.js";

type Scores = Record<ModerationCategory, number>;
type Rule = { name: string; flag: (p: Scores, listed: ModerationCategory[]) => boolean };
const mass = (p: Scores, L: ModerationCategory[]) => L.reduce((s, c) => s + p[c], 0);
const argmax = (p: Scores) => MODERATION_CATEGORIES.reduce((a, b) => (p[b] > p[a] ? b : a));
const RULES: Rule[] = [
  { name: "argmax listed", flag: (p, L) => L.includes(argmax(p)) },
  ...[0.2, 0.3, 0.4, 0.5, 0.6].map((t) => ({
    name: `P(listed) >= ${t}`,
    flag: (p: Scores, L: ModerationCategory[]) => mass(p, L) >= t,
  })),
  ...[0.3, 0.4, 0.5].map((t) => ({
    name: `argmax or >= ${t}`,
    flag: (p: Scores, L: ModerationCategory[]) => L.includes(argmax(p)) || mass(p, L) >= t,
  })),
];
const LISTS = {
  "allow one": MODERATION_CATEGORIES.map((c) => MODERATION_CATEGORIES.filter((x) => x !== c)),
  "flag only one": MODERATION_CATEGORIES.map((c) => [c]),
};

/** Macro over the lists: recall on rows whose category is listed, false flags on the rest. */
function compare(rows: readonly { gold: ModerationCategory; p: Scores }[], title: string): void {
  const hit = rows.filter((r) => argmax(r.p) === r.gold).length / rows.length;
  console.log(`\n${title}: ${rows.length} rows, argmax accuracy ${hit.toFixed(3)}`);
  for (const [kind, lists] of Object.entries(LISTS)) {
    console.log(`  ${kind}:`);
    for (const rule of RULES) {
      let recall = 0;
      let falseFlags = 0;
      let n = 0;
      for (const L of lists) {
        const pos = rows.filter((r) => L.includes(r.gold));
        const neg = rows.filter((r) => !L.includes(r.gold));
        if (pos.length === 0 || neg.length === 0) continue;
        recall += pos.filter((r) => rule.flag(r.p, L)).length / pos.length;
        falseFlags += neg.filter((r) => rule.flag(r.p, L)).length / neg.length;
        n++;
      }
      const [r, f] = [recall / n, falseFlags / n];
      console.log(
        `    ${rule.name.padEnd(16)} recall ${r.toFixed(3)}  false flags ${f.toFixed(3)}  balanced ${((r + 1 - f) / 2).toFixed(3)}`,
      );
    }
  }
}

const toScores = (probs: ArrayLike<number>): Scores =>
  Object.fromEntries(MODERATION_CATEGORIES.map((c, i) => [c, probs[i] as number])) as Scores;

const model = await loadModerationModel();
const pools = buildPools(SHARED_DATASETS, REPO, SEED, { holdout: true });
const labelled = pools.category.filter((r) => r.category);
compare(
  labelled.map((r) => ({ gold: r.category as ModerationCategory, p: model.classify(r.text).categoryScores })),
  "shipped weights, every category row (in-sample)",
);

const options = headOptions(SEED);
const test = labelled.filter((r) => r.test);
const { bits, epochs, lr, l2, seed } = options.category;
const head = trainSoftmax(
  categorySamples(
    labelled.filter((r) => !r.test),
    options,
  ),
  MODERATION_CATEGORIES.length,
  { dim: 1 << bits, epochs, rate: lr, l2, seed },
);
const none = { bits: 1, weights: new Float32Array(2), bias: 0 };
const params = {
  windowWords: options.windowWords,
  signals: { toxic: none, compliance: none },
  categoryBits: options.category.bits,
  category: Float32Array.from(head.weights),
  categoryBias: Float32Array.from(head.bias),
  classes: MODERATION_CATEGORIES.length,
};
compare(
  test.map((r) => ({
    gold: r.category as ModerationCategory,
    p: toScores(scoreUnits(params, [unitFeatures(r.text, options.windowWords).whole]).categoryProbs),
  })),
  "n-gram category head trained without the held-out part, on that part",
);
