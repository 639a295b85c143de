/** Held-out figures for the model card, computed through the shipped model's own classify(). */
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/categories.js";
import type { ModerationModel } from "../../src/guardrails/content-moderation/model/model.js";
import { atThreshold, categoryFigures, recallAtFpr, rocAuc, type Scored } from "./metrics.js";
import type { Example } from "./read.js";

/** The encoder vectors of a text, when the embedding head is being measured. */
export type Lookup = (text: string) => Float32Array[] | undefined;

const round = (x: number) => Math.round(x * 10000) / 10000;

export function binaryFigures(items: readonly Scored[], threshold: number) {
  const at = atThreshold(items, threshold);
  return {
    n: items.length,
    positives: items.filter((x) => x.label === 1).length,
    rocAuc: round(rocAuc(items)),
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
