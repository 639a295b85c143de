import { EventEmitter } from "node:events";
import { Accumulator, type AccumulatorOptions } from "./accumulate.js";
import type { ColumnMap } from "./columns.js";
import { type CompareOptions, CompareTally } from "./compare.js";
import { exampleOf } from "./examples.js";
import { orderedMap } from "./pool.js";
import type { TableItem } from "./readers/types.js";
import { type EvalRow, toEvalRow } from "./rows.js";
import type { RowRange } from "./shard.js";
import type { BatchEvents, BatchSummary, RowExample, RowResult } from "./summary.js";

/** One unit of work done: its rows (text only where a report may quote it) and their results. */
export interface Evaluated {
  readonly rows: readonly EvalRow[];
  readonly results: readonly RowResult[];
  /** Stopped part-way (Ctrl-C): later units are dropped, so the summary covers a prefix of the file. */
  readonly partial?: boolean;
}

export interface RunOptions<U> extends AccumulatorOptions {
  /** Units of work in file order: batches of parsed rows, or byte ranges that workers parse. */
  readonly units: AsyncIterable<U>;
  readonly evaluate: (unit: U) => Promise<Evaluated>;
  /** Valid rows, from the validation pass. */
  readonly total: number;
  /** Invalid rows skipped (counted in the summary). */
  readonly skipped: number;
  /** Units in flight at once; twice the worker count keeps every worker fed. */
  readonly window: number;
  /** Receives each unit's results in order before the next is counted (`--out`). */
  readonly sink?: (rows: readonly EvalRow[], results: readonly RowResult[]) => Promise<void>;
  /** Keep up to this many misclassified rows, in file order, for `--junit`. */
  readonly keepMisclassified?: number;
  readonly signal?: AbortSignal;
  /** With `--compare`: each result carries B's verdict too, tallied into `summary.compare`. */
  readonly compare?: CompareOptions;
  readonly now?: () => number;
  /** The time to report instead of this run's own: a merge reports its shards' (see batch merge). */
  readonly elapsedMs?: number;
  readonly progressEveryMs?: number;
}

export interface RunResult {
  readonly summary: BatchSummary;
  readonly misclassified: { row: RowExample; kind: "false positive" | "false negative" }[];
}

/**
 * Valid rows in batches of `size`, parsed on this thread (the validation pass reported the rest);
 * with `range`, only the valid rows of those ordinals (a shard's), stopping once past them.
 */
export async function* rowBatches(
  items: AsyncIterable<TableItem>,
  columns: ColumnMap,
  size = 32,
  maxChars = Number.POSITIVE_INFINITY,
  range: RowRange = { from: 0, to: Number.POSITIVE_INFINITY },
): AsyncGenerator<EvalRow[]> {
  let batch: EvalRow[] = [];
  let ordinal = -1;
  for await (const item of items) {
    if (item.kind !== "record") continue;
    const result = toEvalRow(item, columns, maxChars);
    if ("invalid" in result) continue;
    ordinal++;
    if (ordinal < range.from) continue;
    if (ordinal >= range.to) break;
    batch.push(result.row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* until<U>(units: AsyncIterable<U>, signal: AbortSignal | undefined): AsyncGenerator<U> {
  for await (const unit of units) {
    if (signal?.aborted) return;
    yield unit;
  }
}

/**
 * Runs the units through `evaluate` in order and folds the results into the summary. Emits
 * `progress` (throttled), `row` and `done`; an aborted signal stops sending work, lets the units
 * in flight finish, and summarises the rows done.
 */
export class BatchRunner extends EventEmitter<BatchEvents> {
  async run<U>(options: RunOptions<U>): Promise<RunResult> {
    const now = options.now ?? (() => performance.now());
    const acc = new Accumulator(options);
    const compare = options.compare ? new CompareTally(options.compare) : undefined;
    acc.skipped = options.skipped;
    const misclassified: RunResult["misclassified"] = [];
    const keep = options.keepMisclassified ?? 0;
    const started = now();
    let lastProgress = started;
    this.emit("validated", { total: options.total, invalid: options.skipped });
    const done = orderedMap(until(options.units, options.signal), options.window, options.evaluate);
    for await (const { rows, results, partial } of done) {
      await options.sink?.(rows, results);
      results.forEach((result, i) => {
        const row = rows[i] as EvalRow;
        acc.add(row, result);
        compare?.add(row, result);
        if (misclassified.length < keep && result.label !== null && result.label !== result.flagged) {
          misclassified.push({
            row: exampleOf(row, result, options.scored),
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
      if (partial) break;
    }
    const elapsed = options.elapsedMs ?? now() - started;
    this.emit("progress", acc.progress(elapsed, options.total));
    const summary = acc.summary(elapsed, options.signal?.aborted === true && acc.rows < options.total);
    if (compare) summary.compare = compare.summary();
    this.emit("done", summary);
    return { summary, misclassified };
  }
}
