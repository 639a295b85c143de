import type { Execute, OptionsOf, Parent } from "../declare.js";
import { integer, oneOf, shardFlag } from "../flag-parsers.js";
import { declareBatchMerge } from "./batch-merge.js";
import { withOutcomeFlags } from "./batch-outcome-flags.js";

const declare = (parent: Parent) =>
  withOutcomeFlags(
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
      .option(
        "--concurrency <n>",
        "worker threads (0: run on the main thread)",
        integer("--concurrency", 0, 256),
      )
      .option(
        "--batch-size <n>",
        "rows a worker evaluates together (the encoder embeds them in one call)",
        integer("--batch-size", 1, 10000),
      ),
  )
    .option(
      "--shard <i/n>",
      "score only shard i of n (0-based, contiguous row ranges) into --out part.jsonl, for `batch merge`",
      shardFlag,
    )
    .addHelpText(
      "after",
      `\nExample: npx guardrail batch prompts.csv --fail-under f1=0.9 --max-fpr 0.02 --junit junit.xml
Compare: npx guardrail batch prompts.csv --profile default --compare my-model --report compare.html
Shards:  npx guardrail batch big.csv --shard 0/4 --out part-0.jsonl (… 3/4), then npx guardrail batch merge part-*.jsonl
Exit codes: 0 ran and met every gate, 1 a gate failed, 2 usage, config or data error (or interrupted).`,
    );

/** `batch`'s flags as parsed, the data set, and a signal that stops the run as Ctrl-C does. */
export type BatchOptions = OptionsOf<typeof declare> & {
  readonly file: string;
  readonly signal?: AbortSignal;
};

/** The evaluation modules load only when `batch` runs, and ink only when it draws on a terminal. */
export function declareBatch(parent: Parent, execute: Execute): void {
  const batch = declare(parent);
  declareBatchMerge(batch, () => batch.opts(), execute);
  batch.action((file, options) =>
    execute(async (ctx) => (await import("../actions/batch.js")).runBatch({ ...options, file }, ctx)),
  );
}
