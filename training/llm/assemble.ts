/**
 * From fitted n-gram weights to the classifier that ships: quantise, calibrate the n-grams, write
 * the header, fit (or take the refitted) MLP and calibrate it, build the classifier. One function
 * for train.ts, which writes the model, and loso.ts, which fits it once per held-out source: the
 * leave-one-source-out figures are only the expected quality of the shipped model if both run
 * the same steps.
 */
import { createInjectionClassifier, type InjectionModelHeader } from "../../src/guardrails/llm/classifier.js";
import type { Mlp } from "../../src/guardrails/llm/mlp.js";
import { createNgramScorer } from "../../src/guardrails/llm/ngram-scorer.js";
import { foldText } from "../../src/text/normalize.js";
import type { LinearModel } from "../lib/logistic.js";
import { calibrate, type ThresholdRules } from "./calibrate.js";
import type { FitContext } from "./cross-fit.js";
import type { Embedded } from "./embed.js";
import type { Example } from "./example.js";
import { fitMlpStage } from "./fit-mlp.js";
import type { Featured } from "./items.js";
import type { Split } from "./split.js";
import { quantise } from "./write-model.js";

export interface AssembleInput {
  /** The n-gram weights, fitted on the training split (or on train + calibration by a refit). */
  model: LinearModel;
  splits: Record<Split, Example[]>;
  embedded: Partial<Record<Split, Embedded[]>>;
  /** The training split's n-gram features, for the MLP's stacking folds. */
  featured: Featured[];
  fit: FitContext;
  rules: ThresholdRules;
  /** With a refit: the MLP fitted on train + calibration and both stages' out-of-fold raw scores. */
  refitted?: { mlp: Mlp; outOfFold: { ngram: (e: Example) => number; mlp: (e: Example) => number } };
  /** No MLP: the n-gram model alone. */
  ngramsOnly: boolean;
  members: number;
  trainedAt: string;
  log: (m: string) => void;
}

export function assemble(o: AssembleInput) {
  // Quantise first, so everything below measures the weights that ship.
  const { scale, quantised, shipped } = quantise(o.model.weights);
  const ngram = createNgramScorer(o.fit.dim, shipped, o.model.bias);
  // Harmful questions without an injection are neither attacks nor ordinary prompts (report.ts).
  const calibration = o.splits.calibration.filter((e) => e.kind !== "harmful-plain");
  const ngramCal = calibrate(
    calibration,
    o.refitted?.outOfFold.ngram ?? ((e) => ngram(foldText(e.text)).z),
    o.rules,
    o.log,
  );
  o.log(`n-grams alone: ${ngramCal.isotonic.z.length} isotonic knots, threshold ${ngramCal.threshold}`);
  const header: InjectionModelHeader = {
    format: 2,
    dim: o.fit.dim,
    scale,
    bias: o.model.bias,
    platt: ngramCal.platt,
    isotonic: ngramCal.isotonic,
    threshold: ngramCal.threshold,
    trainedAt: o.trainedAt,
  };
  const stage = o.ngramsOnly
    ? undefined
    : fitMlpStage({
        splits: o.splits,
        embedded: o.embedded,
        featured: o.featured,
        fit: o.fit,
        scorer: ngram,
        calibration,
        ...(o.refitted ? { refitted: o.refitted.mlp, outOfFold: o.refitted.outOfFold.mlp } : {}),
        rules: o.rules,
        members: o.members,
        log: o.log,
      });
  if (stage) header.mlp = stage.header;
  const classifier = createInjectionClassifier(header, shipped, stage?.mlp);
  return {
    header,
    quantised,
    classifier,
    ...(stage ? { mlp: stage.mlp } : {}),
    thresholds: { ...(stage ? { full: stage.thresholds } : {}), ngrams: ngramCal.thresholds },
  };
}
