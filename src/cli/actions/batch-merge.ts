import { UsageError } from "../../errors.js";
import { finishBatch } from "../batch/finish.js";
import { mergeRows } from "../batch/merge-rows.js";
import { setUpMerge } from "../batch/merge-setup.js";
import type { MergeOptions } from "../commands/batch-merge.js";
import type { CliContext } from "../context.js";

/**
 * Merges the parts of a sharded run into exactly what one run over the whole file gives: the same
 * summary, reports, gates and exit code (1 a gate failed, 2 parts that do not belong together).
 */
export async function runBatchMerge(options: MergeOptions, ctx: CliContext): Promise<number> {
  const refused = options.scoringFlags;
  if (refused.length > 0)
    throw new UsageError(
      `batch merge: ${refused.join(", ")} ${refused.length === 1 ? "says" : "say"} how to score rows, and the parts were scored already; leave ${refused.length === 1 ? "it" : "them"} out`,
    );
  const setup = await setUpMerge(options, ctx);
  return finishBatch(setup, { ...(await mergeRows(setup, ctx)), view: undefined }, ctx);
}
