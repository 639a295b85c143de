import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { writeFileAtomic } from "../../config/files.js";
import { UsageError } from "../../errors.js";
import { type Baseline, loadBaseline } from "../../eval/baseline.js";
import { type Gate, parseGates, runGates } from "../../eval/gates.js";
import { junitXml } from "../../eval/junit.js";
import { readTable } from "../../eval/readers/index.js";
import { openResultsWriter, type ResultsWriter } from "../../eval/results-writer.js";
import { BatchRunner } from "../../eval/runner.js";
import type { BatchSummary } from "../../eval/summary.js";
import type { Target } from "../../eval/sweep.js";
import { describeInvalid, requireValid, validateTable } from "../../eval/validate.js";
import { lineDiff, setThresholds } from "../../eval/write-profile.js";
import { scoredGuardrails } from "../../guardrails/lists.js";
import type { GuardrailId } from "../../guardrails/types.js";
import { DEFAULT_LIMITS } from "../../server/types.js";
import { createEvaluator } from "../batch/evaluator.js";
import { openInput } from "../batch/input.js";
import { checkOutputs, requireWritable, writeOutput } from "../batch/outputs.js";
import { attachPlainProgress } from "../batch/plain-view.js";
import { renderSummary } from "../batch/print-summary.js";
import type { InkView } from "../batch-view/run-ink-view.js";
import { wantsInkView } from "../batch-view/wants-ink-view.js";
import type { BatchOptions } from "../commands/batch.js";
import { type CliContext, loadCliConfig, printJson } from "../context.js";
import { paint } from "../output.js";
import { selectProfile } from "../select-profile.js";

function targetOf(options: BatchOptions): Target | undefined {
  const { targetFpr: fpr, targetRecall: recall } = options;
  if (fpr !== undefined && recall !== undefined)
    throw new UsageError("pass --target-fpr or --target-recall, not both");
  if (options.writeProfile && fpr === undefined && recall === undefined) {
    throw new UsageError(
      "--write-profile writes the recommended thresholds: add --target-fpr or --target-recall",
    );
  }
  if (fpr !== undefined) return { metric: "fpr", value: fpr };
  return recall === undefined ? undefined : { metric: "recall", value: recall };
}

/** `--fail-under`'s gates, then `--max-fpr`'s (parsed as it came in). */
function gatesOf(options: BatchOptions): Gate[] {
  const gates = parseGates(options.failUnder, undefined);
  if (options.maxFpr !== undefined) gates.push({ metric: "fpr", op: "<=", value: options.maxFpr });
  return gates;
}

/** Evaluates a data set with a profile; 1 when a gate fails, 0 otherwise (flagged rows are expected). */
export async function runBatch(options: BatchOptions, ctx: CliContext): Promise<number> {
  const { mode, tolerance } = options;
  const target = targetOf(options);
  const gates = gatesOf(options);
  const outputs = await checkOutputs(
    options,
    ctx.cwd,
    options.file === "-" ? undefined : resolve(ctx.cwd, options.file),
  );
  const baseline: Baseline | undefined = options.baseline
    ? await loadBaseline(resolve(ctx.cwd, options.baseline))
    : undefined;

  const registry = await ctx.registry();
  const config = await loadCliConfig(ctx);
  const { profile } = selectProfile(config, options);
  if (options.writeProfile) {
    if (config.dir === undefined) {
      throw new UsageError(
        "--write-profile needs a config directory (the bundled profiles are read-only): pass --config DIR, or create one with `guardrail init`",
      );
    }
    // Written atomically (a new file renamed over it): the profile's directory must take files.
    await requireWritable("--write-profile", profile.file, profile.file, true);
  }
  const enabled = new Map<GuardrailId, number | null>();
  for (const [id, settings] of Object.entries(profile.guardrails) as [
    GuardrailId,
    Record<string, unknown>,
  ][]) {
    if (settings.enabled && registry[id].appliesTo.includes(mode)) {
      enabled.set(id, typeof settings.threshold === "number" ? settings.threshold : null);
    }
  }

  const input = await openInput(options.file, options.format, ctx);
  try {
    const columnOptions = {
      ...(options.textColumn ? { textColumn: options.textColumn } : {}),
      ...(options.labelColumn ? { labelColumn: options.labelColumn } : {}),
      ...(options.promptColumn ? { promptColumn: options.promptColumn } : {}),
      ...(options.categoryColumn ? { categoryColumn: options.categoryColumn } : {}),
    };
    const maxChars = options.maxMessageChars ?? DEFAULT_LIMITS.messageChars;
    const validation = await validateTable(
      readTable(input.file, input.format),
      columnOptions,
      mode,
      maxChars,
    ).catch((error: unknown) => {
      // Say which file: "the file is empty", "cannot tell which column holds the prompts", ...
      throw error instanceof UsageError ? new UsageError(`${input.name}: ${error.message}`) : error;
    });
    requireValid(validation, input.name, options.skipInvalid === true);
    if (validation.invalidCount > 0 && !ctx.json && !options.quiet) {
      ctx.io.stderr(`warning: skipping ${describeInvalid(validation, input.name)}\n`);
    }
    if (validation.columns.label === undefined && (gates.length > 0 || baseline || target)) {
      throw new UsageError(
        `${input.name}: gates, baselines and threshold targets need labels, and no label column was found; pass --label-column NAME`,
      );
    }

    const concurrency = options.concurrency ?? availableParallelism();
    const evaluator = await createEvaluator(ctx, {
      input,
      columns: validation.columns,
      mode,
      concurrency,
      batchSize: options.batchSize ?? 32,
      maxChars,
      hasInvalid: validation.invalidCount > 0,
      ...(options.profile ? { profile: options.profile } : {}),
      ...(options.app ? { app: options.app } : {}),
    });
    const runner = new BatchRunner();
    const quiet = options.quiet === true || ctx.json;
    const stop = new AbortController();
    const onSigint = () => stop.abort();
    let writer: ResultsWriter | undefined;
    let view: InkView | undefined;
    let summary: BatchSummary;
    let misclassified: Awaited<ReturnType<BatchRunner["run"]>>["misclassified"];
    // From here the worker threads are running: whatever happens, they are stopped before this
    // returns, or they would keep the process alive after it printed its error.
    try {
      writer = outputs.out ? openResultsWriter(outputs.out, [...enabled.keys()]) : undefined;
      // The live view on a terminal; ink and react load only here, never for check or serve.
      view = wantsInkView({ isTTY: ctx.io.stdoutIsTTY === true, env: ctx.env, json: ctx.json, quiet })
        ? (await import("../batch-view/run-ink-view.js")).runInkView(runner, {
            color: ctx.io.color,
            signal: stop.signal,
          })
        : undefined;
      if (!quiet && !view) attachPlainProgress(runner, ctx.io.stderr);
      stop.signal.addEventListener("abort", evaluator.stop);
      process.once("SIGINT", onSigint);
      if (options.signal?.aborted) stop.abort();
      options.signal?.addEventListener("abort", onSigint);
      const sink = writer?.write.bind(writer);
      ({ summary, misclassified } = await runner.run({
        file: input.name,
        mode,
        profile: profile.name,
        concurrency,
        guardrails: enabled,
        scored: scoredGuardrails(registry),
        sweep: options.sweep === true,
        ...(target ? { target } : {}),
        units: evaluator.units,
        evaluate: evaluator.evaluate,
        total: validation.total,
        skipped: validation.invalidCount,
        window: Math.max(2, concurrency * 2),
        ...(sink ? { sink } : {}),
        keepMisclassified: options.junitRows === true ? 1000 : Number(options.junitRows ?? 0),
        signal: stop.signal,
      }));
    } catch (error) {
      view?.close();
      throw error;
    } finally {
      process.removeListener("SIGINT", onSigint);
      options.signal?.removeEventListener("abort", onSigint);
      await evaluator.close();
      await writer?.close();
    }

    summary.gates = runGates(
      summary,
      validation.total,
      gates,
      baseline ? { summary: baseline, tolerance } : undefined,
    );
    if (ctx.json) printJson(ctx, summary);
    else if (view) await view.finish(summary);
    else ctx.io.stdout(renderSummary(summary, paint(ctx.io.color)));
    if (outputs.report) {
      const { renderReport } = await import("../../eval/report/index.js");
      await writeOutput("--report", outputs.report, renderReport(summary));
    }
    if (outputs.junit) await writeOutput("--junit", outputs.junit, junitXml(summary, misclassified));
    if (options.writeProfile && !summary.interrupted) await writeProfile(ctx, profile.file, summary);
    if (summary.interrupted) {
      ctx.io.stderr(
        `batch: interrupted after ${summary.rows} of ${validation.total} rows; gates not applied\n`,
      );
      return 2;
    }
    const failed = summary.gates.filter((g) => !g.passed);
    for (const gate of failed) ctx.io.stderr(`gate failed: ${gate.name}: ${gate.message}\n`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    await input.cleanup();
  }
}

async function writeProfile(ctx: CliContext, file: string, summary: BatchSummary): Promise<void> {
  const thresholds: Partial<Record<GuardrailId, number>> = {};
  for (const [id, g] of Object.entries(summary.guardrails) as [
    GuardrailId,
    NonNullable<BatchSummary["guardrails"][GuardrailId]>,
  ][]) {
    if (g.recommendation?.threshold != null) thresholds[id] = g.recommendation.threshold;
  }
  const out = ctx.json ? ctx.io.stderr : ctx.io.stdout;
  if (Object.keys(thresholds).length === 0) {
    out("write-profile: no guardrail has a recommended threshold; the profile is unchanged\n");
    return;
  }
  const before = await readFile(file, "utf8");
  const after = setThresholds(file, before, thresholds);
  if (after === before) {
    out(`write-profile: ${file} already has these thresholds\n`);
    return;
  }
  await writeFileAtomic(file, after);
  out(`--- ${file}\n+++ ${file} (recommended thresholds)\n${lineDiff(before, after)}`);
}
