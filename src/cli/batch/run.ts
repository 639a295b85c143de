import { availableParallelism } from "node:os";
import type { CompareOptions } from "../../eval/compare.js";
import { openResultsWriter, type ResultsWriter } from "../../eval/results-writer.js";
import { BatchRunner, type RunResult } from "../../eval/runner.js";
import type { InkView } from "../batch-view/run-ink-view.js";
import { wantsInkView } from "../batch-view/wants-ink-view.js";
import { type CliContext, configOrigin } from "../context.js";
import { displayPath } from "../output.js";
import { createEvaluator } from "./evaluator.js";
import { junitRowsOf } from "./outcome-setup.js";
import { partHeaderLine, partTrailerLine } from "./part-header.js";
import { attachPlainProgress } from "./plain-view.js";
import { type BatchSetup, rowsToRun } from "./setup.js";

/** A finished (or interrupted) run, and the live view still showing it on a terminal. */
export interface BatchRun extends RunResult {
  readonly view: InkView | undefined;
}

/** The live view on a terminal; ink and react load only here, never for check or serve. */
async function openView(runner: BatchRunner, signal: AbortSignal, ctx: CliContext, quiet: boolean) {
  const ink = wantsInkView({ isTTY: ctx.io.stdoutIsTTY === true, env: ctx.env, json: ctx.json, quiet });
  if (ink)
    return (await import("../batch-view/run-ink-view.js")).runInkView(runner, {
      color: ctx.io.color,
      signal,
    });
  if (!quiet) attachPlainProgress(runner, ctx.io.stderr);
  return undefined;
}

/** What the runner needs to tally `--compare`: both profiles, and the guardrails each runs. */
function compareOptions(setup: BatchSetup, ctx: CliContext): { compare?: CompareOptions } {
  if (!setup.compare) return {};
  const side = (p: BatchSetup["profile"]) => ({
    profile: p.name,
    profile_file: displayPath(ctx.cwd, p.file),
  });
  const guardrails = { a: [...setup.enabled.keys()], b: [...setup.compare.enabled.keys()] };
  return {
    compare: { a: side(setup.profile), b: side(setup.compare.profile), guardrails, scored: setup.scored },
  };
}

/**
 * Evaluates every valid row with the profile, on worker threads (or this one with --concurrency
 * 0), writing per-row results to --out as they come. Ctrl-C and `options.signal` stop it early:
 * the summary then covers the rows done and says it was interrupted.
 */
export async function runRows(setup: BatchSetup, ctx: CliContext): Promise<BatchRun> {
  const { options, input, validation } = setup;
  const concurrency = options.concurrency ?? availableParallelism();
  const evaluator = await createEvaluator(ctx, {
    input,
    columns: validation.columns,
    mode: options.mode,
    concurrency,
    batchSize: options.batchSize ?? 32,
    maxChars: setup.maxChars,
    hasInvalid: validation.invalidCount > 0,
    allTexts: setup.outputs.out !== undefined,
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.app ? { app: options.app } : {}),
    ...(setup.compare ? { compare: setup.compare.profile.name } : {}),
    ...(setup.shard ? { range: setup.shard.range } : {}),
  });
  const runner = new BatchRunner();
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  let writer: ResultsWriter | undefined;
  let view: InkView | undefined;
  let trailer: string | undefined;
  // From here the worker threads are running: whatever happens, they are stopped before this
  // returns, or they would keep the process alive after it printed its error.
  try {
    const { out } = setup.outputs;
    const { shard } = setup;
    const header = shard && partHeaderLine({ ...setup, shard }, ctx, concurrency);
    writer = out ? openResultsWriter(out, [...setup.enabled.keys()], header) : undefined;
    view = await openView(runner, stop.signal, ctx, options.quiet === true || ctx.json);
    stop.signal.addEventListener("abort", evaluator.stop);
    process.once("SIGINT", onSigint);
    if (options.signal?.aborted) stop.abort();
    options.signal?.addEventListener("abort", onSigint);
    const sink = writer?.write.bind(writer);
    const result = await runner.run({
      file: input.name,
      mode: options.mode,
      profile: setup.profile.name,
      provenance: {
        data_sha256: setup.dataSha256,
        profile_file: displayPath(ctx.cwd, setup.profile.file),
        ...configOrigin(ctx),
      },
      concurrency,
      guardrails: setup.enabled,
      scored: setup.scored,
      sweep: options.sweep === true,
      ...(setup.target ? { target: setup.target } : {}),
      units: evaluator.units,
      evaluate: evaluator.evaluate,
      total: rowsToRun(setup),
      skipped: validation.invalidCount,
      window: Math.max(2, concurrency * 2),
      ...(sink ? { sink } : {}),
      keepMisclassified: junitRowsOf(options),
      signal: stop.signal,
      ...compareOptions(setup, ctx),
    });
    if (shard) trailer = partTrailerLine(result.summary);
    return { ...result, view };
  } catch (error) {
    view?.close();
    throw error;
  } finally {
    process.removeListener("SIGINT", onSigint);
    options.signal?.removeEventListener("abort", onSigint);
    await evaluator.close();
    await writer?.close(trailer);
  }
}
