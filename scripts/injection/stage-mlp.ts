import { hashRange } from "../../src/guardrails/llm/features/hash.js";
import type { Mlp } from "../../src/guardrails/llm/mlp.js";
import { mlpLogit } from "../../src/guardrails/llm/mlp.js";
import type { NgramMax } from "../../src/guardrails/llm/ngram-scorer.js";
import type { Embedded } from "./embed.js";
import type { Example } from "./example.js";
import { type MlpOptions, trainMlp } from "./mlp-train.js";
import { type Stacked, stackExample, trainingRows } from "./stack.js";

type Scorer = (folded: string) => NgramMax;

/**
 * Trains the MLP on the training split. The n-gram inputs of a training window come from an
 * n-gram model that did not see its family (`scorerForFold`, k-fold by family), so the MLP learns
 * how far to trust the n-grams on unseen text, not on memorised text. Early stopping watches the
 * calibration split (family-disjoint from training), with the shipped n-gram model's inputs.
 */
export function trainStage(
  train: Example[],
  embedded: Embedded[],
  valid: { examples: Example[]; embedded: Embedded[]; scorer: Scorer },
  family: (e: Example) => string,
  folds: number,
  scorerForFold: (fold: number) => Scorer,
  options: MlpOptions,
  log: (m: string) => void,
): { mlp: Mlp; epochs: number } {
  const foldOf = (e: Example) => hashRange(options.seed + 17, family(e), 0, family(e).length) % folds;
  const scorers = Array.from({ length: folds }, (_, k) => scorerForFold(k));
  const stacked = train.map((e, i) => stackExample(e, embedded[i] as Embedded, scorers[foldOf(e)] as Scorer));
  const fit = trainingRows(train, embedded, stacked, options.seed);
  const held = trainingRows(
    valid.examples,
    valid.embedded,
    valid.examples.map((e, i) => stackExample(e, valid.embedded[i] as Embedded, valid.scorer)),
    options.seed,
  );
  log(`MLP rows: ${fit.length} train, ${held.length} early-stopping (calibration split)`);
  const { mlp, epochs } = trainMlp(fit, held, options, log);
  return { mlp, epochs };
}

/** The raw score of an example: the maximum MLP logit over its windows (the bias if none). */
export function maxWindowLogit(mlp: Mlp, s: Stacked): number {
  let z = Number.NEGATIVE_INFINITY;
  for (const x of s.inputs) z = Math.max(z, mlpLogit(mlp, x));
  return Number.isFinite(z) ? z : mlp.b2;
}
