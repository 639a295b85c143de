/**
 * The flags that define an llm model (n-gram and MLP hyper-parameters, threshold rules) and the
 * fit context built from them: shared by train.ts, which ships a model, and loso.ts, which fits the
 * same model once per held-out source.
 */
import { flag, type Parsed } from "../lib/flags.js";
import { SEED } from "../lib/paths.js";
import type { ThresholdRules } from "./calibrate.js";
import type { FitContext } from "./cross-fit.js";
import type { Example } from "./example.js";
import { trainNgrams } from "./items.js";

export const MODEL_FLAGS = {
  bits: flag.integer(18, "log2 of the n-gram hash buckets", { min: 8, max: 24 }),
  epochs: flag.integer(6, "n-gram logistic regression epochs", { min: 1 }),
  rate: flag.number(0.1, "n-gram AdaGrad step", { min: 0 }),
  l2: flag.number(1e-6, "n-gram L2 strength per example", { min: 0 }),
  seed: flag.integer(SEED, "seed of every split, shuffle and initialisation"),
  maxFpr: flag.number(0.02, "false-positive budget of the threshold rules", { min: 0, max: 1 }),
  thresholdRule: flag.choice(
    ["pooled", "balanced"] as const,
    "pooled",
    "the rule that sets the bundled thresholds",
  ),
  sourceMin: flag.integer(50, "pooled rule: benign sources with at least this many calibration texts…", {
    min: 1,
  }),
  sourceFpr: flag.number(0.05, "…stay at or under this false-positive rate", { min: 0, max: 1 }),
  hidden: flag.integer(256, "MLP hidden units", { min: 1 }),
  dropout: flag.number(0.2, "MLP dropout on the hidden layer", { min: 0, max: 0.99 }),
  decay: flag.number(1e-4, "MLP decoupled weight decay per step", { min: 0 }),
  mlpEpochs: flag.integer(12, "MLP epochs (the most, with early stopping)", { min: 1 }),
  averageFrom: flag.integer(4, "average the MLP's weights from this epoch on; 0: early stopping", { min: 0 }),
  dataInput: flag.boolean(
    "the MLP also reads whether the text is data handed to the model (a tool result) or a request",
  ),
  dataCopies: flag.choice(
    ["attacks", "prompts"] as const,
    "attacks",
    "with --data-input, the prompts also trained as data: the attacks, or every prompt (benign ones as negatives)",
  ),
};
export type ModelFlags = Parsed<typeof MODEL_FLAGS>;

export function thresholdRules(flags: ModelFlags): ThresholdRules {
  return {
    rule: flags.thresholdRule,
    maxFpr: flags.maxFpr,
    pooled: { maxFpr: flags.maxFpr, minSource: flags.sourceMin, maxSourceFpr: flags.sourceFpr },
  };
}

export function fitContext(
  flags: ModelFlags,
  family: (e: Example) => string,
  log: (m: string) => void,
): FitContext {
  const dim = 1 << flags.bits;
  const ngramOptions = { dim, epochs: flags.epochs, rate: flags.rate, l2: flags.l2, seed: flags.seed };
  return {
    dim,
    family,
    trainNgrams: (list) => trainNgrams(list, ngramOptions),
    mlp: {
      hidden: flags.hidden,
      rate: 1e-3,
      decay: flags.decay,
      dropout: flags.dropout,
      batch: 64,
      maxEpochs: flags.mlpEpochs,
      patience: 4,
      seed: flags.seed,
      ...(flags.dataInput ? { dataInput: true, dataCopies: flags.dataCopies } : {}),
      ...(flags.averageFrom > 0 ? { averageFrom: flags.averageFrom } : {}),
    },
    log,
  };
}
