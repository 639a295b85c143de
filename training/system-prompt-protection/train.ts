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
import { flag, parseFlags } from "../lib/flags.js";
import { runMain } from "../lib/main.js";
import { modelDir, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { scoreParts, thresholdFor } from "./combiners.js";
import { precomputedEncoder } from "./embed-cache.js";
import { buildExamples } from "./examples.js";
import { fitLeakModel, SETTING_NAMES, sentencesToEmbed } from "./fit.js";
import { testReport } from "./report.js";
import { type Setting, scoreExamples } from "./score-examples.js";
import { writeLeakModel } from "./write-model.js";

const USAGE = "npm run train:system-prompt-protection -- [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "leakage"), "the leakage data sets"),
  out: flag.path(modelDir("system-prompt-protection"), "where the model goes"),
  seed: flag.integer(SEED, "seed of the generated examples and the shuffles"),
  noEncoder: flag.boolean("train and measure without the sentence encoder"),
  noRealResponses: flag.boolean("train on generated examples alone, without real-responses.ts"),
  written: flag.boolean(
    "also train on the project-written instruction answers (the bundled recipe: package.json passes it)",
  ),
  trainWritten: flag.string(
    "",
    "comma-separated project-written JSON Lines of leaks (with `system_prompt`) and talk answers to train on (written-rows.ts; the bundled recipe passes datasets/leakage/leak-train.jsonl and talk-train.jsonl)",
  ),
  threads: flag.integer(2, "encoder threads", { min: 1 }),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
  const log = (s: string) => console.log(s);

  // Load, and generate each system prompt's examples in its split.
  const { prompts, attacks, systemPrompts, examples } = buildExamples(flags.data, flags.seed, {
    ...flags,
    trainWritten: flags.trainWritten.split(",").filter(Boolean),
  });
  const bySplit = (s: string) => examples.filter((e) => e.split === s);
  const [train, val, test] = [bySplit("train"), bySplit("val"), bySplit("test")];
  log(
    `${prompts.length} system prompts, ${attacks.length} attacks; examples train ${train.length}, val ${val.length}, test ${test.length}`,
  );

  // Embed every held-out sentence once.
  const useEncoder = !flags.noEncoder;
  const settings: Setting[] = useEncoder ? ["", "S", "SE"] : ["", "S"];
  const encoder = useEncoder
    ? await precomputedEncoder(sentencesToEmbed([...val, ...test], systemPrompts), flags.threads)
    : undefined;
  if (encoder) log(`embedded the held-out sentences in ${seconds()} s`);

  // Fit the n-gram classifiers on train, the combiners and the thresholds on validation.
  const model = await fitLeakModel(train, val, systemPrompts, settings, flags.seed, encoder);
  const { thresholds } = model;
  log(
    `threshold ${thresholds.threshold}${thresholds.noSystemPrompt === undefined ? "" : `, without a system prompt ${thresholds.noSystemPrompt}`} (mean validation F1 ${model.valF1.toFixed(3)})`,
  );

  // Measure on test.
  const results: { name: string; threshold: number; rows: ReturnType<typeof scoreParts> }[] = [];
  for (const setting of settings) {
    const rows = await scoreExamples(test, systemPrompts, model, setting, encoder);
    for (const usePrompt of [false, true])
      results.push({
        name: `${SETTING_NAMES[setting]}${usePrompt ? " + prompt" : ""}`,
        threshold: thresholdFor(thresholds, setting),
        rows: scoreParts(model.combiners, rows, setting, usePrompt),
      });
  }
  log(testReport(results, test));

  writeLeakModel(flags.out, { ...model, seed: flags.seed, encoder: useEncoder });
  log(`\nwrote ${flags.out} in ${seconds()} s`);
}

runMain(import.meta.url, main);
