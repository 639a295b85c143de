/**
 * The bundled threshold, chosen by leave-one-source-out (issue 12): every held-out row's verdict
 * score, as `loso.ts --scores FILE` writes them (each row scored by a model that never saw its
 * source), swept over one shared threshold. The pick is the threshold with the best macro F1 over
 * the held-out sources with both labels, among those whose macro FPR over the sources with safe
 * rows stays within `--max-fpr` and whose ordinary helpful answers are each flagged at most
 * `--max-helpful-fpr`. The fold models' own out-of-fold thresholds are not used here: they chase
 * F1 on sources where most rows are toxic, which bought recall with a third of some sources'
 * safe rows flagged.
 *
 *   npx tsx training/content-moderation/loso-sweep.ts --scores A.jsonl,B.jsonl [--max-fpr 0.1] [--max-helpful-fpr 0.02]
 */
import { flag, parseFlags, UsageError, usageOf } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain } from "../lib/main.js";
import { atThreshold, type Scored } from "../lib/metrics.js";

const USAGE = "npx tsx training/content-moderation/loso-sweep.ts --scores FILE,… [flags]";
const FLAGS = {
  scores: flag.string("", "comma-separated score files written by loso.ts --scores"),
  maxFpr: flag.number(0.1, "macro FPR ceiling over the held-out sources with safe rows", { min: 0, max: 1 }),
  maxHelpfulFpr: flag.number(0.02, "FPR ceiling on each source of ordinary helpful answers", {
    min: 0,
    max: 1,
  }),
};

/** The sources of ordinary helpful answers (training/content-moderation/data-responses.ts). */
const HELPFUL = new Set(["alpaca-outputs", "gpteacher-roleplay", "self-instruct"]);

interface Line {
  source: string;
  label: 0 | 1;
  verdict: number;
}

export interface SweepPoint {
  threshold: number;
  f1: number;
  fpr: number;
  recall: number;
  helpfulFpr: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Macro figures at one threshold over per-source scored rows. */
export function macroAt(bySource: ReadonlyMap<string, Scored[]>, threshold: number): SweepPoint {
  const f1: number[] = [];
  const fpr: number[] = [];
  const recall: number[] = [];
  let helpfulFpr = 0;
  for (const [source, rows] of bySource) {
    const positives = rows.filter((r) => r.label === 1).length;
    const m = atThreshold(rows, threshold);
    if (positives > 0 && positives < rows.length) f1.push(m.f1);
    if (positives < rows.length) fpr.push(m.fpr);
    if (positives > 0) recall.push(m.recall);
    if (HELPFUL.has(source)) helpfulFpr = Math.max(helpfulFpr, m.fpr);
  }
  return { threshold, f1: mean(f1), fpr: mean(fpr), recall: mean(recall), helpfulFpr };
}

/** The best point within both ceilings, or null if none is. */
export function pick(points: readonly SweepPoint[], maxFpr: number, maxHelpfulFpr: number) {
  const ok = points.filter((p) => p.fpr <= maxFpr && p.helpfulFpr <= maxHelpfulFpr);
  return ok.reduce<SweepPoint | null>((best, p) => (best === null || p.f1 > best.f1 ? p : best), null);
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const files = flags.scores.split(",").filter(Boolean);
  if (files.length === 0)
    throw new UsageError("--scores: give the files loso.ts --scores wrote", usageOf(USAGE, FLAGS));
  const bySource = new Map<string, Scored[]>();
  for (const file of files)
    for (const l of readJsonl<Line>(file)) {
      const rows = bySource.get(l.source) ?? [];
      rows.push({ score: l.verdict, label: l.label });
      bySource.set(l.source, rows);
    }
  const points = Array.from({ length: 91 }, (_, i) => macroAt(bySource, (5 + i) / 100));
  const fmt = (x: number) => x.toFixed(3);
  console.log(`${bySource.size} held-out sources\n`);
  console.log("| threshold | macro F1 | macro FPR | macro recall | worst helpful-answer FPR |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const p of points.filter((_, i) => i % 5 === 0))
    console.log(
      `| ${p.threshold.toFixed(2)} | ${fmt(p.f1)} | ${fmt(p.fpr)} | ${fmt(p.recall)} | ${fmt(p.helpfulFpr)} |`,
    );
  const best = pick(points, flags.maxFpr, flags.maxHelpfulFpr);
  console.log(
    best
      ? `\npick: threshold ${best.threshold.toFixed(2)}: macro F1 ${fmt(best.f1)}, macro FPR ${fmt(best.fpr)}, macro recall ${fmt(best.recall)}, worst helpful-answer FPR ${fmt(best.helpfulFpr)}`
      : `\nno threshold keeps macro FPR ≤ ${flags.maxFpr} and helpful-answer FPR ≤ ${flags.maxHelpfulFpr}`,
  );
}

runMain(import.meta.url, main);
