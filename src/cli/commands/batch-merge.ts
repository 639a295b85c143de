import { Command } from "@commander-js/extra-typings";
import type { Execute, Parent } from "../declare.js";
import { type OutcomeOptions, withOutcomeFlags } from "./batch-outcome-flags.js";

/** `batch merge`'s flags as parsed (batch's outcome flags), and the part files as given. */
export type MergeOptions = OutcomeOptions & {
  readonly parts: readonly string[];
  /** Flags given that say how to score rows (`--profile`, `--mode`, ...): refused, the parts say it. */
  readonly scoringFlags: readonly string[];
};

/**
 * Commander gives a parent's flags precedence over a subcommand's, wherever they stand, so merge
 * takes batch's own outcome flags (--sweep, --report, gates, ...) and refuses the flags that say how
 * to score rows: the parts already say that.
 */
function scoringFlagsGiven(batch: Parent): string[] {
  const outcome = new Set(withOutcomeFlags(new Command()).options.map((o) => o.attributeName()));
  return batch.options
    .filter((o) => !outcome.has(o.attributeName()) && batch.getOptionValueSource(o.attributeName()) === "cli")
    .map((o) => o.long ?? o.flags);
}

/** Declared under `batch`; a data set literally named `merge` is passed as `./merge`. */
export function declareBatchMerge(batch: Parent, outcome: () => OutcomeOptions, execute: Execute): void {
  batch
    .command("merge")
    .description(
      "merge the parts of a sharded run (batch FILE --shard i/n --out part-i.jsonl) into what one run over the whole file gives; takes batch's --json, --out, --sweep, --target-*, --write-profile, gates, --junit, --report",
    )
    .argument("<parts...>", "every part, in any order (e.g. part-*.jsonl)")
    .addHelpText(
      "after",
      `\nExample: npx guardrail batch merge part-*.jsonl --fail-under f1=0.9 --report report.html --junit junit.xml
The parts must come from one data set, one profile (same content) and one shard count, each shard once.
Exit codes: 0 met every gate, 1 a gate failed, 2 usage error or parts that do not belong together.`,
    )
    .action((parts) =>
      execute(async (ctx) =>
        (await import("../actions/batch-merge.js")).runBatchMerge(
          { ...outcome(), parts, scoringFlags: scoringFlagsGiven(batch) },
          ctx,
        ),
      ),
    );
}
