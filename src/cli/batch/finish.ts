import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../config/files.js";
import { baselineWarnings } from "../../eval/baseline.js";
import { runGates } from "../../eval/gates.js";
import { junitXml } from "../../eval/junit.js";
import type { BatchSummary } from "../../eval/summary.js";
import { lineDiff, setThresholds } from "../../eval/write-profile.js";
import type { GuardrailId } from "../../guardrails/types.js";
import { type CliContext, printJson } from "../context.js";
import { paint } from "../output.js";
import { writeOutput } from "./outputs.js";
import { renderSummary } from "./print-summary.js";
import type { BatchRun } from "./run.js";
import type { BatchSetup } from "./setup.js";

/** Writes the recommended thresholds into the profile's YAML, keeping its comments; prints the diff. */
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

/**
 * Applies the gates, prints the summary, writes --report, --junit and --write-profile, and says
 * how the run ended: 2 interrupted, 1 a gate failed, else 0.
 */
export async function finishBatch(setup: BatchSetup, run: BatchRun, ctx: CliContext): Promise<number> {
  const { summary, view } = run;
  const { outputs, baseline, validation } = setup;
  summary.gates = runGates(
    summary,
    validation.total,
    setup.gates,
    baseline ? { summary: baseline, tolerance: setup.options.tolerance } : undefined,
  );
  if (baseline) summary.baseline_warnings = baselineWarnings(baseline, summary);
  if (ctx.json) printJson(ctx, summary);
  else if (view) await view.finish(summary);
  else ctx.io.stdout(renderSummary(summary, paint(ctx.io.color)));
  // After the summary: on a terminal the live view redraws over lines written while it is up.
  for (const w of summary.baseline_warnings) {
    ctx.io.stderr(`warning: --baseline ${setup.options.baseline}: ${w}\n`);
  }
  if (outputs.report) {
    const { renderReport } = await import("../../eval/report/index.js");
    await writeOutput("--report", outputs.report, renderReport(summary));
  }
  if (outputs.junit) await writeOutput("--junit", outputs.junit, junitXml(summary, run.misclassified));
  if (setup.options.writeProfile && !summary.interrupted)
    await writeProfile(ctx, setup.profile.file, summary);
  if (summary.interrupted) {
    ctx.io.stderr(
      `batch: interrupted after ${summary.rows} of ${validation.total} rows; gates not applied\n`,
    );
    return 2;
  }
  const failed = summary.gates.filter((g) => !g.passed);
  for (const gate of failed) ctx.io.stderr(`gate failed: ${gate.name}: ${gate.message}\n`);
  return failed.length > 0 ? 1 : 0;
}
