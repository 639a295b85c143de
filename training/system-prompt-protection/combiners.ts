/**
 * The combiners: per setting, a small logistic regression over the detector's parts (the n-gram
 * classifiers' probabilities, prompt overlap, encoder similarity), fitted on the validation split
 * so they see the classifiers' held-out behaviour; and the one threshold for all of them.
 */
import {
  type PartsModel,
  partsProbability,
} from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { fitDenseLogistic } from "../lib/logistic.js";
import { atThreshold } from "../lib/metrics.js";
import { combinerFeatures, type PartsRow, type Setting } from "./score-examples.js";

export type Combiners = Record<string, PartsModel>;

/** Two combiners per setting: without the originating prompt (`S`) and with it (`SP`). */
export function fitCombiners(valParts: ReadonlyMap<Setting, PartsRow[]>): Combiners {
  const combiners: Combiners = {};
  for (const [setting, rows] of valParts) {
    for (const key of [setting, `${setting}P`]) {
      const features = combinerFeatures(key);
      const use = key.endsWith("P") ? rows.filter((r) => r.example.prompt) : rows;
      const x = use.map((r) => features.map((n) => r.parts[n] ?? 0));
      const fit = fitDenseLogistic(
        x,
        use.map((r) => r.example.label),
        1e-4,
      );
      combiners[key] = {
        features,
        weights: fit.weights.map((w) => +w.toFixed(5)),
        bias: +fit.bias.toFixed(5),
      };
    }
  }
  return combiners;
}

/** Scores rows as the detector does: the P combiner when the example carries a prompt and it is used. */
export function scoreParts(
  combiners: Combiners,
  rows: readonly PartsRow[],
  setting: Setting,
  usePrompt: boolean,
) {
  return rows.map((r) => {
    const key = `${setting}${usePrompt && r.example.prompt ? "P" : ""}`;
    const c = combiners[key];
    if (!c) throw new Error(`no combiner ${key}`);
    return { score: partsProbability(c, r.parts), label: r.example.label, kind: r.example.kind };
  });
}

/**
 * The bundled threshold (`threshold`) and, when chosen apart, the one for a profile without a
 * system prompt (`noSystemPrompt`, the `""` and `P` combiners).
 */
export interface Thresholds {
  readonly threshold: number;
  readonly noSystemPrompt?: number;
}

export function thresholdFor(thresholds: Thresholds, setting: Setting): number {
  return setting === "" ? (thresholds.noSystemPrompt ?? thresholds.threshold) : thresholds.threshold;
}

/**
 * Without a system prompt, the threshold flags at most this share of the validation no-leaks: the
 * issue-12 weakness is false positives there, and leave-one-source-out chose 0.10 over no ceiling
 * (unseen real responses flagged 12% instead of 24%, macro F1 0.880 instead of 0.884; the model card).
 */
const NO_SYSTEM_PROMPT_MAX_FPR = 0.1;

/**
 * With a system prompt, at most this share of the validation no-leaks. Trained on the written leaks
 * (secrets alone, paraphrases, reluctant disclosures), the best-F1 threshold fell from 0.5 to 0.28
 * and leave-one-source-out flagged 6–7% of no-leaks with a system prompt (GPTeacher's code answers
 * 18–24%); among no ceiling, 5%, 3%, 2% and 1%, 1% gave the best macro F1 and the lowest FPR
 * with a system prompt, with and without the encoder (the model card).
 */
const SYSTEM_PROMPT_MAX_FPR = 0.01;

/**
 * The threshold with the best mean F1 over `settings`, with and without prompts, on validation,
 * among those that flag at most `maxFpr` of the validation no-leaks and, when validation holds
 * project-written talk (`written_talk`: answers about rules, prompts and codes written for the
 * user, trained on only with `--written` or `--train-written`), at most `maxFpr` of those too.
 * The bundled model's thresholds are the same without the talk cap; leave-one-source-out's are
 * not: without it the held-out written instruction answers are flagged 15% instead of 4% without
 * a system prompt, and the macro F1 with one is 0.004–0.005 higher.
 */
function bestThreshold(
  combiners: Combiners,
  valParts: ReadonlyMap<Setting, PartsRow[]>,
  settings: readonly Setting[],
  maxFpr = 1,
): { threshold: number; f1: number } {
  // Scored once: only the threshold moves in the loop.
  const scored = settings.flatMap((s) =>
    [true, false].map((p) => scoreParts(combiners, valParts.get(s) ?? [], s, p)),
  );
  const talk = scored.map((rows) => rows.filter((r) => r.kind === "written_talk"));
  const hasTalk = talk.some((rows) => rows.length > 0);
  let threshold = 0.5;
  let bestF1 = -1;
  for (let t = 0.05; t < 0.951; t += 0.01) {
    const at = scored.map((rows) => atThreshold(rows, t));
    const mean = at.reduce((a, b) => a + b.f1, 0) / at.length;
    const fpr = at.reduce((a, b) => a + b.fpr, 0) / at.length;
    const talkFpr = hasTalk
      ? talk.reduce((a, rows) => a + rows.filter((r) => r.score >= t).length / rows.length, 0) / talk.length
      : 0;
    if (fpr <= maxFpr && talkFpr <= maxFpr && mean > bestF1 + 1e-9)
      [bestF1, threshold] = [mean, +t.toFixed(2)];
  }
  return { threshold, f1: bestF1 };
}

/**
 * Two bundled thresholds, each the best mean F1 on validation over its own settings (with and
 * without the originating prompt): one with a system prompt (`S`, `SE`), one without (`""`). The
 * settings are calibrated apart, and without a system prompt the score rests on the learned signal
 * alone; one threshold for all had been a compromise tuned mostly by the overlap settings.
 */
export function chooseThresholds(
  combiners: Combiners,
  valParts: ReadonlyMap<Setting, PartsRow[]>,
): { thresholds: Thresholds; f1: number } {
  const all = [...valParts.keys()];
  const withSystem = all.filter((s) => s !== "");
  if (!valParts.has("") || !withSystem.length) {
    const one = bestThreshold(combiners, valParts, all);
    return { thresholds: { threshold: one.threshold }, f1: one.f1 };
  }
  const system = bestThreshold(combiners, valParts, withSystem, SYSTEM_PROMPT_MAX_FPR);
  const none = bestThreshold(combiners, valParts, [""], NO_SYSTEM_PROMPT_MAX_FPR);
  const f1 = (system.f1 * withSystem.length + none.f1) / all.length;
  return { thresholds: { threshold: system.threshold, noSystemPrompt: none.threshold }, f1 };
}
