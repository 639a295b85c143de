import { Option } from "@commander-js/extra-typings";
import type { Execute, OptionsOf, Parent } from "../declare.js";
import { fraction, gateFraction, integer, oneOf } from "../flag-parsers.js";

const declare = (parent: Parent) =>
  parent
    .command("batch")
    .description(
      "evaluate a profile on a labelled data set (CSV, TSV, JSONL): metrics, threshold tuning, CI gates",
    )
    .argument("<file>", "the data set; - reads stdin")
    .option(
      "--mode <mode>",
      "input (prompts) or output (responses)",
      oneOf("--mode", ["input", "output"]),
      "input",
    )
    .option("--profile <name>", "use this security profile instead of the default one")
    .option("--app <app-id>", "use the profile bound to this app")
    .option(
      "--compare <name>",
      "also judge every row with this profile in the same pass: deltas, an exact McNemar test and the rows whose verdict flipped (the gates still judge --profile)",
    )
    .option("--format <format>", "csv, tsv or jsonl (default: by extension, else sniffed)")
    .option(
      "--text-column <name>",
      "column with the text (auto: text, prompt, message, …; output: response, …)",
    )
    .option(
      "--label-column <name>",
      "column with the expected verdict (auto: label, expected, is_injection, flagged)",
    )
    .option(
      "--prompt-column <name>",
      "with --mode output: column with the prompt (auto: prompt, input, question)",
    )
    .option("--category-column <name>", "column to break the metrics down by (auto: category)")
    .option("--skip-invalid", "skip and count bad rows instead of stopping before the run")
    .option(
      "--max-message-chars <n>",
      "a longer text or prompt is a bad row, as the server refuses it (default 100000)",
      integer("--max-message-chars", 1),
    )
    .option("--out <file>", "write per-row results (.csv or .jsonl)")
    .option(
      "--concurrency <n>",
      "worker threads (0: run on the main thread)",
      integer("--concurrency", 0, 256),
    )
    .option(
      "--batch-size <n>",
      "rows a worker evaluates together (the encoder embeds them in one call)",
      integer("--batch-size", 1, 10000),
    )
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
    .option("--quiet", "no progress lines")
    .addHelpText(
      "after",
      `\nExample: guardrail batch prompts.csv --fail-under f1=0.9 --max-fpr 0.02 --junit junit.xml
Compare: guardrail batch prompts.csv --profile default --compare my-model --report compare.html
Exit codes: 0 ran and met every gate, 1 a gate failed, 2 usage, config or data error (or interrupted).`,
    );

/** `batch`'s flags as parsed, the data set, and a signal that stops the run as Ctrl-C does. */
export type BatchOptions = OptionsOf<typeof declare> & {
  readonly file: string;
  readonly signal?: AbortSignal;
};

/** The evaluation modules load only when `batch` runs, and ink only when it draws on a terminal. */
export function declareBatch(parent: Parent, execute: Execute): void {
  declare(parent).action((file, options) =>
    execute(async (ctx) => (await import("../actions/batch.js")).runBatch({ ...options, file }, ctx)),
  );
}
