/**
 * Every learned part of the leak model, fitted the one way train.ts and loso.ts share: the two
 * n-gram classifiers on the training examples, then the combiners and the threshold on the
 * validation examples (so they see the classifiers' held-out behaviour).
 */
import {
  featurize,
  ngramTokens,
} from "../../src/guardrails/system-prompt-protection/detector/hashed-ngrams.js";
import type { HashedModel } from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import type { SentenceEncoder } from "../../src/guardrails/system-prompt-protection/detector/semantic.js";
import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { type Arithmetic, trainLogistic } from "../lib/logistic.js";
import { type Combiners, chooseThresholds, fitCombiners, type Thresholds } from "./combiners.js";
import type { LeakExample } from "./generate.js";
import { type PartsRow, type Setting, scoreExamples } from "./score-examples.js";

/** This model's AdaGrad arithmetic (lib/logistic.ts): each epoch reshuffles the original order. */
const ARITHMETIC: Arithmetic = { balanceClasses: true, epsilon: "in-sum", bias: "first", shuffle: "restart" };

export const SETTING_NAMES: Record<Setting, string> = {
  "": "no system prompt",
  S: "system prompt",
  SE: "system prompt + encoder",
};

export interface FittedLeakModel {
  readonly disclosure: HashedModel;
  readonly extraction: HashedModel;
  readonly combiners: Combiners;
  readonly thresholds: Thresholds;
}

/** The disclosure classifier (responses) and the extraction classifier (the prompts that asked). */
export function fitClassifiers(train: readonly LeakExample[], seed: number) {
  const fitText = (rows: { text: string; y: 0 | 1; weight?: number }[], bits: number): HashedModel => {
    const items = rows.map((r) => ({
      x: featurize(ngramTokens(r.text), bits),
      y: r.y,
      weight: r.weight ?? 1,
    }));
    const fit = trainLogistic(items, {
      dim: 1 << bits,
      epochs: 6,
      l2: 1e-4,
      rate: 0.2,
      seed,
      arithmetic: ARITHMETIC,
    });
    return { bits, bias: fit.bias, weights: Float32Array.from(fit.weights) };
  };
  const disclosure = fitText(
    train.map((e) => ({ text: e.response, y: e.label })),
    18,
  );
  const promptRows = new Map<string, 0 | 1>();
  for (const e of train) if (e.prompt) promptRows.set(e.prompt, e.promptKind === "extraction" ? 1 : 0);
  const extraction = fitText(
    [...promptRows].map(([text, y]) => ({ text, y })),
    16,
  );
  return { disclosure, extraction };
}

/** The sentences the encoder will be asked for when `examples` are scored against their prompts. */
export function sentencesToEmbed(
  examples: readonly LeakExample[],
  systemPrompts: ReadonlyMap<string, string>,
): string[] {
  const texts = [...new Set(examples.map((e) => e.group))].flatMap((g) =>
    sentences(systemPrompts.get(g) ?? "", 256),
  );
  for (const e of examples) texts.push(...sentences(e.response, 64));
  return texts;
}

/** Classifiers on `train`; combiners and thresholds on `val`, for each setting. */
export async function fitLeakModel(
  train: readonly LeakExample[],
  val: readonly LeakExample[],
  systemPrompts: ReadonlyMap<string, string>,
  settings: readonly Setting[],
  seed: number,
  encoder?: SentenceEncoder,
): Promise<FittedLeakModel & { valF1: number }> {
  const models = fitClassifiers(train, seed);
  const valParts = new Map<Setting, PartsRow[]>();
  for (const setting of settings)
    valParts.set(setting, await scoreExamples(val, systemPrompts, models, setting, encoder));
  const combiners = fitCombiners(valParts);
  const { thresholds, f1 } = chooseThresholds(combiners, valParts);
  return { ...models, combiners, thresholds, valF1: f1 };
}
