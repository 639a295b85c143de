/** Held-out figures for the model card, computed through the shipped model's own classify(). */
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import type { ModerationModel } from "../../src/guardrails/content-moderation/model/model.js";
import { atThreshold, recallAtFpr, rocAucOf, type Scored } from "../lib/metrics.js";
import type { Example } from "./example.js";

/** The encoder vectors of a text, when the embedding head is being measured. */
export type Lookup = (text: string) => Float32Array[] | undefined;

const round = (x: number) => Math.round(x * 10000) / 10000;

export function binaryFigures(items: readonly Scored[], threshold: number) {
  const at = atThreshold(items, threshold);
  return {
    n: items.length,
    positives: items.filter((x) => x.label === 1).length,
    rocAuc: round(rocAucOf(items) ?? Number.NaN),
    precision: round(at.precision),
    recall: round(at.recall),
    f1: round(at.f1),
    fpr: round(at.fpr),
    recallAt1pctFpr: round(recallAtFpr(items, 0.01)),
  };
}

export function scoreAll(model: ModerationModel, rows: readonly Example[], lookup?: Lookup): Scored[] {
  return rows.map((r) => ({
    score: model.classify(r.text, lookup?.(r.text)).unsafeScore,
    label: r.label ?? 0,
  }));
}

export function categoryReport(model: ModerationModel, rows: readonly Example[], lookup?: Lookup) {
  const gold = rows.map((r) =>
    MODERATION_CATEGORIES.indexOf(r.category as (typeof MODERATION_CATEGORIES)[number]),
  );
  const predicted = rows.map((r) => {
    const c = model.classify(r.text, lookup?.(r.text)).category;
    return c ? MODERATION_CATEGORIES.indexOf(c) : 0;
  });
  const figures = categoryFigures(gold, predicted, MODERATION_CATEGORIES.length);
  return { n: figures.n, accuracy: round(figures.accuracy), macroF1: round(figures.macroF1) };
}

/**
 * A compliant response buried in the middle of long, ordinary answers: does the window max still
 * find it? Each held-out compliant response sits between two held-out benign answers.
 */
export function buryInBenign(positives: readonly Example[], benign: readonly Example[]): Example[] {
  const long = benign.filter((b) => b.text.split(/\s+/).length >= 60);
  return positives.map((p, i) => ({
    text: `${long[(2 * i) % long.length]?.text}\n\n${p.text}\n\n${long[(2 * i + 1) % long.length]?.text}`,
    label: 1,
    source: "buried",
  }));
}

/** Accuracy and macro-F1 over the classes that occur in the gold labels. */
export function categoryFigures(gold: readonly number[], predicted: readonly number[], classes: number) {
  const tp = new Array<number>(classes).fill(0);
  const fp = new Array<number>(classes).fill(0);
  const fn = new Array<number>(classes).fill(0);
  gold.forEach((g, i) => {
    const p = predicted[i] as number;
    if (p === g) tp[g] = (tp[g] as number) + 1;
    else {
      fp[p] = (fp[p] as number) + 1;
      fn[g] = (fn[g] as number) + 1;
    }
  });
  const present = [...new Set(gold)];
  const f1s = present.map((c) => {
    const t = tp[c] as number;
    return t ? (2 * t) / (2 * t + (fp[c] as number) + (fn[c] as number)) : 0;
  });
  const correct = gold.filter((g, i) => g === predicted[i]).length;
  return {
    accuracy: correct / Math.max(1, gold.length),
    macroF1: f1s.reduce((s, v) => s + v, 0) / Math.max(1, f1s.length),
    n: gold.length,
  };
}
