import { finishBatch } from "../batch/finish.js";
import { runRows } from "../batch/run.js";
import { rowsToRun, setUpBatch } from "../batch/setup.js";
import type { BatchOptions } from "../commands/batch.js";
import type { CliContext } from "../context.js";

/**
 * Evaluates a data set with a profile; 1 when a gate fails, 0 otherwise (flagged rows are
 * expected), 2 when interrupted. Everything that can be checked is checked before the first row.
 */
export async function runBatch(options: BatchOptions, ctx: CliContext): Promise<number> {
  const setup = await setUpBatch(options, ctx);
  try {
    return await finishBatch({ ...setup, total: rowsToRun(setup) }, await runRows(setup, ctx), ctx);
  } finally {
    await setup.input.cleanup();
  }
}
