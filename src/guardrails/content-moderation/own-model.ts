import { resolve } from "node:path";
import { z } from "zod";
import {
  type HfSequenceClassifier,
  labelIndex,
  loadHfSequenceClassifier,
} from "../../models/hf-classifier/index.js";
import { sharedModel } from "../../models/hf-classifier/shared.js";
import type { Detector } from "../types.js";
import { judgeCategories } from "./listed-categories.js";
import { MODERATION_CATEGORIES, type ModerationCategory, type ModerationModel } from "./model/index.js";

/**
 * Bring your own moderation model: a local Hugging Face text-classification export (ONNX weights,
 * tokenizer.json, config.json), its labels mapped to the taxonomy by the profile. Never downloaded.
 */
export const ownModerationModel = z.strictObject({
  /** The export folder, relative to the profile file. */
  path: z.string().min(1),
  /**
   * The model's labels (its config.json `id2label` names) and what each means: a category of the
   * taxonomy, or SAFE. A label left out counts as SAFE; at least one must name a category.
   */
  labels: z
    .record(z.string().min(1), z.enum([...MODERATION_CATEGORIES, "SAFE"]))
    .refine((labels) => Object.values(labels).some((c) => c !== "SAFE"), {
      message: "map at least one of the model's labels to a category (e.g. toxic: HARASSMENT)",
    }),
  /** Tokens per window; defaults to the model's own limit. */
  max_length: z.number().int().min(8).optional(),
});

export type OwnModerationModel = z.output<typeof ownModerationModel>;

/** A user's own model has no bundled threshold: 0.5 on its unsafe probability unless the profile says. */
export const OWN_MODEL_THRESHOLD = 0.5;

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The unsafe probability of one window and its most likely listed category, 0 when its harm is not
 * one the profile lists. Labels of a softmax model are exclusive, so the unsafe ones add up, and their
 * shares by category are judged as the bundled model's are (listed-categories.ts); a multi-label
 * model's labels are independent judgements, so only the listed ones are read.
 */
function judgeWindow(
  p: Float64Array,
  unsafe: readonly { index: number; category: ModerationCategory }[],
  multiLabel: boolean,
  listed: readonly ModerationCategory[],
): { score: number; category: ModerationCategory | null } {
  if (multiLabel) {
    let top: { score: number; category: ModerationCategory | null } = { score: 0, category: null };
    for (const { index, category } of unsafe) {
      const q = p[index] as number;
      if (listed.includes(category) && (q > top.score || top.category === null)) top = { score: q, category };
    }
    return top;
  }
  let score = 0;
  const byCategory: Partial<Record<ModerationCategory, number>> = {};
  for (const { index, category } of unsafe) {
    const q = p[index] as number;
    score += q;
    byCategory[category] = (byCategory[category] ?? 0) + q;
  }
  const verdict = judgeCategories(byCategory, listed);
  return { score: verdict.listed ? Math.min(1, score) : 0, category: verdict.category };
}

/**
 * The detector for a profile's own model. The bundled n-grams choose which windows of a very long
 * text the model reads (it reads at most eight), and the bundled model judges the text too when
 * windows were left unread, so a long text is never passed unread.
 */
export async function ownModelDetector(
  settings: OwnModerationModel,
  threshold: number,
  categories: readonly ModerationCategory[],
  baseDir: string,
  bundled: ModerationModel,
): Promise<Detector> {
  const options = {
    dir: resolve(baseDir, settings.path),
    ...(settings.max_length === undefined ? {} : { maxLength: settings.max_length }),
  };
  // Shared with every profile and reload that names the same folder (sharedModel): never closed here.
  const classifier: HfSequenceClassifier = await sharedModel(
    "text-classification",
    options.dir,
    options,
    () => loadHfSequenceClassifier(options),
  );
  const { folder } = classifier;
  const fix = "fix the label names under content_moderation.model.labels";
  const unsafe = Object.entries(settings.labels).flatMap(([label, category]) =>
    category === "SAFE" ? [] : [{ index: labelIndex(folder, label, fix), category }],
  );
  return {
    triage: (texts) => bundled.triage(texts),
    async check(request) {
      const { windows, skipped } = await classifier.read(request.text.raw, (texts) => bundled.triage(texts));
      let worst = { score: 0, category: null as ModerationCategory | null };
      for (const p of windows) {
        const judged = judgeWindow(p, unsafe, folder.multiLabel, categories);
        if (judged.score > worst.score) worst = judged;
      }
      let flagged = worst.score >= threshold;
      if (!flagged && skipped > 0) {
        const rest = bundled.classify(request.text.clean);
        const verdict = judgeCategories(rest.categoryScores, categories);
        if (rest.unsafeScore >= bundled.threshold && verdict.listed)
          worst = { score: threshold, category: verdict.category };
        flagged = worst.score >= threshold;
      }
      return {
        flagged,
        score: round(worst.score),
        threshold,
        ...(flagged && worst.category ? { category: worst.category } : {}),
      };
    },
  };
}
