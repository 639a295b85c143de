import { ConfigError } from "../../errors.js";
import type { ColumnMap } from "../../eval/columns.js";
import { startPool } from "../../eval/pool.js";
import { type ByteChunk, canSplit, planChunks } from "../../eval/readers/chunks.js";
import { readTable } from "../../eval/readers/index.js";
import type { EvalRow } from "../../eval/rows.js";
import { type Evaluated, rowBatches } from "../../eval/runner.js";
import type { RowRange } from "../../eval/shard.js";
import type { RowResult } from "../../eval/summary.js";
import type { CheckMode } from "../../guardrails/types.js";
import { PRECISION_ENV } from "../../models/use-lite/precision.js";
import { compileSelected } from "../compile-selected.js";
import type { CliContext } from "../context.js";
import type { ChunkReply } from "./chunk-task.js";
import type { BatchInput } from "./input.js";
import type { WorkerSetup, WorkerTask } from "./worker.js";

/** How the run gets its work done: a stream of units and what evaluates one, plus a way to stop. */
export interface Evaluator {
  readonly units: AsyncIterable<unknown>;
  readonly evaluate: (unit: unknown) => Promise<Evaluated>;
  /** Asks the workers to stop after their current batch (Ctrl-C). */
  readonly stop: () => void;
  readonly close: () => Promise<void>;
}

export interface EvaluatorOptions {
  readonly input: BatchInput;
  readonly columns: ColumnMap;
  readonly mode: CheckMode;
  readonly concurrency: number;
  readonly batchSize: number;
  /** Rows with a longer text were reported by the validation pass; here they are skipped. */
  readonly maxChars: number;
  /** The validation pass found bad rows: a CSV's quoting may be broken, so it is not split. */
  readonly hasInvalid: boolean;
  /** `--out` writes every row's text: workers send them all back. */
  readonly allTexts: boolean;
  readonly profile?: string;
  readonly app?: string;
  /** `--compare`: a second profile judging the same rows in the same engine calls. */
  readonly compare?: string;
  /** `--shard`: only these valid rows, parsed on this thread (a byte range cannot tell ordinals). */
  readonly range?: RowRange;
}

/** The worker thread's module: .ts beside this file under tsx/vitest, .js in the build. */
const workerScript = () =>
  new URL(`./worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

/**
 * A worker pool, or with `--concurrency 0` the engine on this thread (small runs, tests). Workers
 * read and parse their own byte ranges of the file, so this thread only plans the ranges and
 * merges results; a CSV with bad rows (its quoting may be broken) is parsed here instead.
 */
export async function createEvaluator(ctx: CliContext, o: EvaluatorOptions): Promise<Evaluator> {
  const rows = () =>
    rowBatches(readTable(o.input.file, o.input.format), o.columns, o.batchSize, o.maxChars, o.range);
  if (o.concurrency === 0) return inProcess(ctx, o, rows());
  const stop = new SharedArrayBuffer(4);
  const setup: WorkerSetup = {
    configFlag: ctx.configFlag,
    configEnv: ctx.env.GUARDRAIL_CONFIG,
    precisionEnv: ctx.env[PRECISION_ENV],
    cwd: ctx.cwd,
    mode: o.mode,
    stop,
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.app ? { app: o.app } : {}),
    ...(o.compare ? { compare: o.compare } : {}),
  };
  let pool: Awaited<ReturnType<typeof startPool<WorkerTask, string>>>;
  try {
    pool = await startPool<WorkerTask, string>(workerScript(), o.concurrency, setup);
  } catch (error) {
    throw new ConfigError(`batch worker failed to start: ${(error as Error).message}`);
  }
  const common = { stop: () => Atomics.store(new Int32Array(stop), 0, 1), close: () => pool.close() };
  const split =
    o.range === undefined && (o.input.format === "jsonl" || !o.hasInvalid) && (await canSplit(o.input.file));
  if (!split) {
    return {
      ...common,
      units: rows(),
      evaluate: async (unit) => {
        const batch = unit as EvalRow[];
        return { rows: batch, results: JSON.parse(await pool.run({ rows: batch })) as RowResult[] };
      },
    };
  }
  // A chunk's row numbers start after the rows of the chunks before it, known once they are in;
  // units are evaluated in file order, so each waits on the one before.
  let before = Promise.resolve(0);
  return {
    ...common,
    units: planChunks(o.input.file, o.input.format),
    evaluate: (unit) => {
      const reply = pool.run({
        chunk: {
          file: o.input.file,
          format: o.input.format,
          columns: o.columns,
          chunk: unit as ByteChunk,
          batchSize: o.batchSize,
          maxChars: o.maxChars,
          allTexts: o.allTexts,
        },
      });
      const done = Promise.all([before, reply]).then(([base, text]) => merge(base, JSON.parse(text)));
      before = done.then(
        (d) => d.next,
        () => 0,
      );
      return done;
    },
  };
}

function merge(base: number, reply: ChunkReply): Evaluated & { next: number } {
  const rows = reply.results.map((result, i): EvalRow => {
    const row = result.row + base;
    (result as { row: number }).row = row;
    const { line, id, label, category } = result;
    return { row, line, id, text: reply.texts[i] ?? "", label, category };
  });
  return { rows, results: reply.results, partial: reply.partial, next: base + reply.rows };
}

async function inProcess(ctx: CliContext, o: EvaluatorOptions, units: AsyncIterable<EvalRow[]>) {
  const { compiled, compared, engine } = await compileSelected(ctx, o);
  const { createRowEvaluator } = await import("./evaluate-rows.js");
  const run = createRowEvaluator(engine, compiled, o.mode, compared);
  return {
    units,
    evaluate: async (unit: unknown) => {
      const batch = unit as EvalRow[];
      return { rows: batch, results: await run(batch) };
    },
    stop: () => {},
    close: async () => {},
  } satisfies Evaluator;
}
