/**
 * Error analysis of a trained model: the false negatives and false positives of one split at the
 * model's bundled threshold, grouped by source and template family (technique).
 *   node --import tsx training/llm/errors.ts [flags]   (--help lists them)
 * Diagnosis only: nothing here feeds back into training or the threshold.
 */
import { writeFileSync } from "node:fs";
import { loadInjectionClassifier } from "../../src/guardrails/llm/classifier.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain } from "../lib/main.js";
import { modelDir, SEED } from "../lib/paths.js";
import { DATA_FLAGS, loadSplits } from "./data.js";
import { embedExamples } from "./embed.js";
import { isData } from "./example.js";

const USAGE = "node --import tsx training/llm/errors.ts [flags]";
const FLAGS = {
  ...DATA_FLAGS,
  model: flag.path(modelDir("llm"), "the model to analyse"),
  split: flag.choice(["train", "calibration", "test", "heldout"] as const, "test", "the split to analyse"),
  seed: flag.integer(SEED, "the seed the model was trained with (it fixes the splits)"),
  out: flag.optionalPath("write the errors here as JSON Lines"),
};

async function main(argv: string[]): Promise<void> {
  const { split, seed, ...flags } = parseFlags(USAGE, FLAGS, argv);
  const options = { seed, plantDirect: false, refit: 0, trainFraction: 1 };
  const { splits, family } = loadSplits(
    {
      shared: flags.data,
      project: flags.project,
      round4: flags.round4,
      systemPrompts: flags.systemPrompts,
      plantInPrompts: flags.plantInPrompts,
    },
    options,
    () => {},
  );
  const examples = splits[split].filter((e) => e.kind !== "harmful-plain");
  const classifier = await loadInjectionClassifier(flags.model);
  const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
  const embedded = await embedExamples(examples, encoder);
  await encoder.close();
  const t = classifier.threshold;
  const rows = examples.map((e, i) => {
    const r = classifier.explain(e.text, embedded[i], { data: isData(e) });
    return {
      source: e.source,
      group: family(e),
      kind: e.kind,
      label: e.label,
      score: Number(r.score.toFixed(3)),
      windows: embedded[i]?.windows.length ?? 0,
      words: e.text.split(/\s+/u).length,
      error: e.label === 1 && r.score < t ? "FN" : e.label === 0 && r.score >= t ? "FP" : "",
      worst: r.worst.slice(0, 160),
      text: e.text.slice(0, 300),
    };
  });
  const errors = rows.filter((r) => r.error);
  if (flags.out) writeFileSync(flags.out, `${errors.map((r) => JSON.stringify(r)).join("\n")}\n`);
  const count = (xs: typeof rows, key: (r: (typeof rows)[number]) => string) => {
    const m = new Map<string, number>();
    for (const r of xs) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
    return [...m].sort((a, b) => b[1] - a[1]);
  };
  const bySource = new Map(count(rows, (r) => r.source));
  console.log(`${split}: ${rows.length} texts, threshold ${t}`);
  for (const kind of ["FN", "FP"] as const) {
    const xs = errors.filter((r) => r.error === kind);
    console.log(`\n## ${kind}: ${xs.length}`);
    for (const [s, n] of count(xs, (r) => r.source)) console.log(`  ${s}: ${n}/${bySource.get(s)}`);
    console.log("  by family (top 15):");
    for (const [g, n] of count(xs, (r) => `${r.source} | ${r.group}`).slice(0, 15))
      console.log(`    ${n}  ${g}`);
    const long = xs.filter((r) => r.windows > 1).length;
    console.log(`  multi-window texts: ${long}/${xs.length}`);
  }
}

runMain(import.meta.url, main);
