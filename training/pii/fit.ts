/**
 * The tagger's training data and fit as `npm run train:pii` does them, shared with the
 * leave-one-source-out evaluation (loso.ts), which fits the same way on fewer sources.
 */
import { loadLexicon } from "../../src/guardrails/pii/lexicon.js";
import type { TaggerHeader, TaggerModel } from "../../src/guardrails/pii/tagger/model.js";
import type { WordStatesOf } from "../../src/guardrails/pii/tagger/tagger.js";
import { TAG_COUNT } from "../../src/guardrails/pii/tagger/tags.js";
import { quantise } from "../../src/models/weight-file.js";
import { SEED } from "../lib/paths.js";
import { type LabelledText, loadNannigalaxy, loadPresidio, loadWnut, taggedOnly } from "./data.js";
import { createExampleMaker, type TaggedExample, trainPerceptron } from "./perceptron.js";

/** The public data set a training text comes from: what leave-one-source-out holds out. */
export type PiiSource = "presidio-research" | "nannigalaxy" | "wnut17";

export interface TrainingSet {
  readonly name: string;
  readonly source: PiiSource;
  readonly texts: readonly LabelledText[];
}

/** A fifth of dev, as a share of generated_large. */
export const FOLD = 0.08;

/**
 * train:pii's sets: the dev split of generated_large (its first 40%; without fifth `fold` when
 * given), generated_small, nannigalaxy and WNUT-17 train.
 */
export function trainingSets(data: string, o: { fold?: number; wnut?: boolean } = {}): TrainingSet[] {
  const large = `${data}/presidio-research/generated_large.json`;
  const from = (o.fold ?? 0) * FOLD;
  const dev =
    o.fold === undefined
      ? loadPresidio(large, 0, 0.4)
      : [...loadPresidio(large, 0, from), ...loadPresidio(large, from + FOLD, 0.4)];
  const sets: TrainingSet[] = [
    { name: "generated_large dev", source: "presidio-research", texts: dev },
    {
      name: "generated_small",
      source: "presidio-research",
      texts: loadPresidio(`${data}/presidio-research/generated_small.json`),
    },
    {
      name: "nannigalaxy",
      source: "nannigalaxy",
      texts: loadNannigalaxy(`${data}/nannigalaxy/pii_syn_nano_en.json`),
    },
  ];
  if (o.wnut !== false)
    sets.push({
      name: "wnut17 train",
      source: "wnut17",
      texts: loadWnut(`${data}/wnut17/wnut17train.conll`),
    });
  return sets;
}

/** train:pii's defaults (`npm run train:pii -- --help`), the shipped tagger's settings. */
export const FIT_DEFAULTS = { epochs: 8, bits: 18, seed: SEED, repeat: 3 } as const;

export interface FitOptions {
  readonly bits: number;
  readonly epochs: number;
  readonly seed: number;
  /** Times each PII text is shown per epoch (WNUT-17 tweets once). */
  readonly repeat: number;
  /** Trains on the encoder's word states too (word-states.ts), each scaled by `denseScale`. */
  readonly statesOf?: WordStatesOf;
  readonly denseScale?: number;
}

export interface FittedTagger {
  readonly header: TaggerHeader;
  readonly weights: Int16Array;
  readonly model: TaggerModel;
}

/** Featurises `sets` and fits the averaged perceptron; the weights quantised as the file stores them. */
export function fitTagger(
  sets: readonly TrainingSet[],
  o: FitOptions,
  log: (message: string) => void,
): FittedTagger {
  const dim = 1 << o.bits;
  const toExample = createExampleMaker(loadLexicon(), dim, o.statesOf);
  const examples: TaggedExample[] = [];
  for (const { name, source, texts } of sets) {
    const before = examples.length;
    // WNUT-17 tweets outnumber the PII texts; `repeat` shows each PII text that many times per epoch.
    const times = source === "wnut17" ? 1 : o.repeat;
    for (const t of taggedOnly(texts)) for (let r = 0; r < times; r++) examples.push(toExample(t));
    const toks = examples.slice(before).reduce((a, e) => a + e.gold.length, 0);
    log(`${name.padEnd(20)} ${String(texts.length).padStart(5)} texts ${String(toks).padStart(7)} tokens`);
  }
  const trained = trainPerceptron(
    examples,
    { dim, epochs: o.epochs, seed: o.seed, ...(o.denseScale ? { denseScale: o.denseScale } : {}) },
    log,
  );
  const { scale, values } = quantise(trained.weights);
  // In the sparse table's units, so the two parts' scores add up as they did in training.
  const dense = trained.dense ? Float32Array.from(trained.dense, (w) => w / scale) : undefined;
  return {
    header: { format: 1, dim, tags: TAG_COUNT, scale },
    weights: values,
    model: { dim, weights: values, ...(dense ? { dense } : {}) },
  };
}
