import { EventEmitter } from "node:events";
import { Accumulator, type AccumulatorOptions } from "./accumulate.js";
import type { ColumnMap } from "./columns.js";
import { exampleOf } from "./examples.js";
import { orderedMap } from "./pool.js";
import type { TableItem } from "./readers/types.js";
import { type EvalRow, toEvalRow } from "./rows.js";
import type { BatchEvents, BatchSummary, RowExample, RowResult } from "./summary.js";

export interface RunOptions extends AccumulatorOptions {
  /** A fresh pass over the file (the validation pass already consumed one). */
  readonly items: () => AsyncIterable<TableItem>;
  readonly columns: ColumnMap;
  /** Valid rows, from the validation pass. */
  readonly total: number;
  /** Invalid rows skipped (counted in the summary). */
  readonly skipped: number;
  /** Evaluates one batch of rows, answering in the same order (a worker pool, or in-process). */
  readonly evaluate: (rows: readonly EvalRow[]) => Promise<RowResult[]>;
  /** Batches in flight at once; twice the worker count keeps every worker fed. */
  readonly window: number;
  readonly batchSize?: number;
  /** Receives each batch's results in order before the next is counted (`--out`). */
  readonly sink?: (results: readonly RowResult[]) => Promise<void>;
  /** Keep up to this many misclassified rows, in file order, for `--junit`. */
  readonly keepMisclassified?: number;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
  readonly progressEveryMs?: number;
}

export interface RunResult {
  readonly summary: BatchSummary;
  readonly misclassified: { row: RowExample; kind: "false positive" | "false negative" }[];
}

async function* batches(options: RunOptions): AsyncGenerator<EvalRow[]> {
  const size = options.batchSize ?? 32;
  let batch: EvalRow[] = [];
  for await (const item of options.items()) {
    if (options.signal?.aborted) break;
    if (item.kind !== "record") continue;
    const result = toEvalRow(item, options.columns);
    if ("invalid" in result) continue; // reported and counted by the validation pass
    batch.push(result.row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0 && !options.signal?.aborted) yield batch;
}

/**
 * Runs the rows through `evaluate` in order-preserving batches and folds the results into the
 * summary. Emits `progress` (throttled), `row` and `done`; an aborted signal stops reading, lets
 * the batches in flight finish, and summarises the rows done.
 */
export class BatchRunner extends EventEmitter<BatchEvents> {
  async run(options: RunOptions): Promise<RunResult> {
    const now = options.now ?? (() => performance.now());
    const acc = new Accumulator(options);
    acc.skipped = options.skipped;
    const misclassified: RunResult["misclassified"] = [];
    const keep = options.keepMisclassified ?? 0;
    const started = now();
    let lastProgress = started;
    this.emit("validated", { total: options.total, invalid: options.skipped });
    const results = orderedMap(batches(options), options.window, async (rows) => ({
      rows,
      results: await options.evaluate(rows),
    }));
    for await (const { rows, results: batch } of results) {
      await options.sink?.(batch);
      batch.forEach((result, i) => {
        const row = rows[i] as EvalRow;
        acc.add(row, result);
        if (misclassified.length < keep && result.label !== null && result.label !== result.flagged) {
          misclassified.push({
            row: exampleOf(row, result),
            kind: result.flagged ? "false positive" : "false negative",
          });
        }
        this.emit("row", result);
      });
      const t = now();
      if (t - lastProgress >= (options.progressEveryMs ?? 100)) {
        lastProgress = t;
        this.emit("progress", acc.progress(t - started, options.total));
      }
    }
    const elapsed = now() - started;
    this.emit("progress", acc.progress(elapsed, options.total));
    const summary = acc.summary(elapsed, options.signal?.aborted === true && acc.rows < options.total);
    this.emit("done", summary);
    return { summary, misclassified };
  }
}
