/**
 * Trains and measures the system_prompt_protection leak model; writes models/system-prompt-protection/.
 *   npm run train:system-prompt-protection -- [flags]   (--help lists them)
 * Split by system prompt (generate.ts: 60% train, 15% validation, 25% test). The two n-gram
 * classifiers learn on train; the combiners and the threshold on validation (so they see the
 * classifiers' held-out behaviour); every printed figure is on test.
 * Steps: load → generate examples per split → fit the n-gram classifiers → embed the held-out
 * sentences → fit the combiners and the threshold → measure on test → write.
 */
import { resolve } from "node:path";
import {
  featurize,
  ngramTokens,
} from "../../src/guardrails/system-prompt-protection/detector/hashed-ngrams.js";
import type { HashedModel } from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { flag, parseFlags } from "../lib/flags.js";
import { type Arithmetic, trainLogistic } from "../lib/logistic.js";
import { runMain } from "../lib/main.js";
import { modelDir, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { chooseThreshold, fitCombiners, scoreParts } from "./combiners.js";
import { precomputedEncoder } from "./embed-cache.js";
import { generateExamples, type LeakExample, splitOf } from "./generate.js";
import { loadAttacks, loadSystemPrompts } from "./load-prompts.js";
import { testReport } from "./report.js";
import { type PartsRow, type Setting, scoreExamples } from "./score-examples.js";
import { writeLeakModel } from "./write-model.js";

const USAGE = "npm run train:system-prompt-protection -- [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "leakage"), "the leakage data sets"),
  out: flag.path(modelDir("system-prompt-protection"), "where the model goes"),
  seed: flag.integer(SEED, "seed of the generated examples and the shuffles"),
  noEncoder: flag.boolean("train and measure without the sentence encoder"),
  threads: flag.integer(2, "encoder threads", { min: 1 }),
};

/** This model's AdaGrad arithmetic (lib/logistic.ts): each epoch reshuffles the original order. */
const ARITHMETIC: Arithmetic = { balanceClasses: true, epsilon: "in-sum", bias: "first", shuffle: "restart" };

const SETTING_NAMES: Record<Setting, string> = {
  "": "no system prompt",
  S: "system prompt",
  SE: "system prompt + encoder",
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
  const log = (s: string) => console.log(s);

  // Load, and generate each system prompt's examples in its split.
  const prompts = loadSystemPrompts(flags.data);
  const attacks = loadAttacks(flags.data);
  const systemPrompts = new Map(prompts.map((p) => [p.id, p.text]));
  const examples = prompts.flatMap((p) => {
    const split = splitOf(p.id);
    const own = attacks.filter((a) => (splitOf(a.id) === "train") === (split === "train")).map((a) => a.text);
    return generateExamples(p, split, own, flags.seed);
  });
  const bySplit = (s: string) => examples.filter((e) => e.split === s);
  const [train, val, test] = [bySplit("train"), bySplit("val"), bySplit("test")];
  log(
    `${prompts.length} system prompts, ${attacks.length} attacks; examples train ${train.length}, val ${val.length}, test ${test.length}`,
  );

  // Fit the n-gram classifiers on train.
  const models = fitClassifiers(train, flags.seed);

  // Embed every held-out sentence once.
  const useEncoder = !flags.noEncoder;
  const settings: Setting[] = useEncoder ? ["", "S", "SE"] : ["", "S"];
  let encoder: Awaited<ReturnType<typeof precomputedEncoder>> | undefined;
  if (useEncoder) {
    const held = [...val, ...test];
    const texts = [...new Set(held.map((e) => e.group))].flatMap((g) =>
      sentences(systemPrompts.get(g) ?? "", 256),
    );
    for (const e of held) texts.push(...sentences(e.response, 64));
    encoder = await precomputedEncoder(texts, flags.threads);
    log(`embedded ${new Set(texts).size} sentences in ${seconds()} s`);
  }

  // Fit the combiners and the threshold on validation.
  const valParts = new Map<Setting, PartsRow[]>();
  for (const setting of settings)
    valParts.set(setting, await scoreExamples(val, systemPrompts, models, setting, encoder));
  const combiners = fitCombiners(valParts);
  const { threshold, f1 } = chooseThreshold(combiners, valParts);
  log(`threshold ${threshold} (mean validation F1 ${f1.toFixed(3)})`);

  // Measure on test.
  const results: { name: string; rows: ReturnType<typeof scoreParts> }[] = [];
  for (const setting of settings) {
    const rows = await scoreExamples(test, systemPrompts, models, setting, encoder);
    for (const usePrompt of [false, true])
      results.push({
        name: `${SETTING_NAMES[setting]}${usePrompt ? " + prompt" : ""}`,
        rows: scoreParts(combiners, rows, setting, usePrompt),
      });
  }
  log(testReport(results, test, threshold));

  writeLeakModel(flags.out, { threshold, seed: flags.seed, encoder: useEncoder, ...models, combiners });
  log(`\nwrote ${flags.out} in ${seconds()} s`);
}

/** The disclosure classifier (responses) and the extraction classifier (the prompts that asked). */
function fitClassifiers(train: readonly LeakExample[], seed: number) {
  const fitText = (rows: { text: string; y: 0 | 1 }[], bits: number): HashedModel => {
    const items = rows.map((r) => ({ x: featurize(ngramTokens(r.text), bits), y: r.y, weight: 1 }));
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

runMain(import.meta.url, main);
