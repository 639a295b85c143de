import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../config/files.js";
import { baselineWarnings } from "../../eval/baseline.js";
import { runGates } from "../../eval/gates.js";
import { junitXml } from "../../eval/junit.js";
import type { BatchSummary } from "../../eval/summary.js";
import { lineDiff, setThresholds } from "../../eval/write-profile.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { OutcomeOptions } from "../commands/batch-outcome-flags.js";
import { type CliContext, printJson } from "../context.js";
import { paint } from "../output.js";
import type { Outcome } from "./outcome-setup.js";
import { writeOutput } from "./outputs.js";
import { renderSummary } from "./print-summary.js";
import type { BatchRun } from "./run.js";

/** What turns a summary into the outputs and the exit code: a run's setup, or a merge's. */
export interface FinishSetup extends Outcome {
  readonly options: Pick<
    OutcomeOptions,
    "baseline" | "tolerance" | "writeProfile" | "force" | "targetFpr" | "writeMaxFpr"
  >;
  /** The profile --write-profile writes to. */
  readonly profile: { readonly file: string };
  /** The rows the run was to score: an interrupted run did fewer. */
  readonly total: number;
}

/**
 * Writes the recommended thresholds into the profile's YAML, byte for byte the same elsewhere, and
 * prints the diff. A threshold that runs above `--write-max-fpr` on this data is refused (a
 * `--target-recall` of 0.7 once wrote a vector threshold at 50% FPR): nothing is written, and the
 * run exits 1, unless `--force`. Returns whether it refused.
 */
async function writeProfile(ctx: CliContext, setup: FinishSetup, summary: BatchSummary): Promise<boolean> {
  const { file } = setup.profile;
  const { force, targetFpr } = setup.options;
  // A stated --target-fpr is accepted as it is: the ceiling guards --target-recall's choices.
  const writeMaxFpr = Math.max(setup.options.writeMaxFpr, targetFpr ?? 0);
  const thresholds: Partial<Record<GuardrailId, number>> = {};
  const refused: string[] = [];
  for (const [id, g] of Object.entries(summary.guardrails) as [
    GuardrailId,
    NonNullable<BatchSummary["guardrails"][GuardrailId]>,
  ][]) {
    const rec = g.recommendation;
    if (rec?.threshold == null || (setup.writeOnly && !setup.writeOnly.includes(id))) continue;
    const fpr = rec.at?.fpr;
    if (fpr != null && fpr > writeMaxFpr && !force)
      refused.push(`${id} ${rec.threshold} runs at ${(fpr * 100).toFixed(1)}% false positives on this data`);
    thresholds[id] = rec.threshold;
  }
  if (refused.length > 0) {
    ctx.io.stderr(
      `write-profile: refused, nothing written: ${refused.join("; ")}, above --write-max-fpr ${writeMaxFpr}. ` +
        "Pass --force to write it anyway, a higher --write-max-fpr, or --write-guardrails to leave it out.\n",
    );
    return true;
  }
  const out = ctx.json ? ctx.io.stderr : ctx.io.stdout;
  if (Object.keys(thresholds).length === 0) {
    out("write-profile: no guardrail has a recommended threshold; the profile is unchanged\n");
    return false;
  }
  const before = await readFile(file, "utf8");
  const after = setThresholds(file, before, thresholds);
  if (after === before) {
    out(`write-profile: ${file} already has these thresholds\n`);
    return false;
  }
  await writeFileAtomic(file, after);
  out(`--- ${file}\n+++ ${file} (recommended thresholds)\n${lineDiff(before, after)}`);
  return false;
}

/**
 * Applies the gates, prints the summary, writes --report, --junit and --write-profile, and says
 * how the run ended: 2 interrupted, 1 a gate failed, else 0.
 */
export async function finishBatch(
  setup: FinishSetup,
  run: Pick<BatchRun, "summary" | "misclassified" | "view">,
  ctx: CliContext,
): Promise<number> {
  const { summary, view } = run;
  const { outputs, baseline, total } = setup;
  summary.gates = runGates(
    summary,
    total,
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
  const writeRefused =
    setup.options.writeProfile && !summary.interrupted && (await writeProfile(ctx, setup, summary));
  if (summary.interrupted) {
    ctx.io.stderr(`batch: interrupted after ${summary.rows} of ${total} rows; gates not applied\n`);
    return 2;
  }
  const failed = summary.gates.filter((g) => !g.passed);
  for (const gate of failed) ctx.io.stderr(`gate failed: ${gate.name}: ${gate.message}\n`);
  return failed.length > 0 || writeRefused ? 1 : 0;
}
