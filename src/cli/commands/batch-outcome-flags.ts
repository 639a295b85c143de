import { type Command, Option, type OptionValues } from "@commander-js/extra-typings";
import { fraction, gateFraction, integer } from "../flag-parsers.js";

/**
 * The flags that turn scored rows into what a run hands over: the sweep and recommendation, the
 * gates, the reports, `--write-profile`. `batch` and `batch merge` both take them, as both end in
 * the same summary (finishBatch), so they are declared once here.
 */
function addFlags(command: Command) {
  return command
    .option("--out <file>", "write per-row results (.csv or .jsonl)")
    .option("--sweep", "print a threshold table per score-bearing guardrail")
    .option(
      "--target-fpr <x>",
      "recommend per guardrail the threshold with the best recall at FPR <= x",
      fraction("--target-fpr"),
    )
    .option(
      "--target-recall <x>",
      "recommend per guardrail the threshold with the lowest FPR at recall >= x",
      fraction("--target-recall"),
    )
    .option("--write-profile", "write the recommended thresholds into the profile's YAML and print the diff")
    .option(
      "--write-guardrails <ids>",
      "with --write-profile: write only these guardrails' thresholds (comma-separated, e.g. llm,vector)",
    )
    .addOption(
      new Option(
        "--write-max-fpr <x>",
        "with --write-profile: refuse a threshold that runs above this false-positive rate on the data (at least --target-fpr)",
      )
        .argParser(fraction("--write-max-fpr"))
        .default(0.1),
    )
    .option("--force", "with --write-profile: write thresholds above --write-max-fpr anyway")
    .option("--fail-under <gates>", "exit 1 unless the metrics reach these, e.g. f1=0.9,recall=0.95")
    .option("--max-fpr <x>", "exit 1 when the false-positive rate is above x", gateFraction("--max-fpr"))
    .option("--baseline <file>", "a saved --json summary: exit 1 when a gated metric got worse")
    .addOption(
      new Option("--tolerance <x>", "how much worse than --baseline a metric may get")
        .argParser(fraction("--tolerance"))
        // The help has always shown the default quoted, as it was once a string.
        .default(0.01, '"0.01"'),
    )
    .option("--junit <file>", "write a JUnit XML report (one test case per gate)")
    .option(
      "--junit-rows [n]",
      "also add up to n misclassified rows to the JUnit report (default 1000)",
      integer("--junit-rows", 1),
    )
    .option(
      "--report <file>",
      "write a self-contained HTML report: curves, histograms, confusion matrix, worst mistakes",
    )
    .option("--quiet", "no progress lines");
}

/** Checked by the compiler: the flags as commander infers them are what OutcomeOptions says. */
type Fits = ReturnType<ReturnType<typeof addFlags>["opts"]> extends OutcomeOptions ? true : never;

/**
 * The return type is written out: emitting the inferred chain of generics into the .d.ts took
 * tsc's declaration emit gigabytes.
 */
export function withOutcomeFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
): Command<A, O & OutcomeOptions, G> {
  const fits: Fits = true;
  void fits;
  return addFlags(command as unknown as Command) as unknown as Command<A, O & OutcomeOptions, G>;
}

/** The outcome flags as parsed: what finishBatch and the setup checks read. */
export interface OutcomeOptions {
  out?: string | undefined;
  sweep?: true | undefined;
  targetFpr?: number | undefined;
  targetRecall?: number | undefined;
  writeProfile?: true | undefined;
  writeGuardrails?: string | undefined;
  writeMaxFpr: number;
  force?: true | undefined;
  failUnder?: string | undefined;
  maxFpr?: number | undefined;
  baseline?: string | undefined;
  tolerance: number;
  junit?: string | undefined;
  junitRows?: number | true | undefined;
  report?: string | undefined;
  quiet?: true | undefined;
}
