/**
 * The bundled operating points, chosen by leave-one-source-out (issue 12): every held-out row's
 * signal scores, as `loso.ts --scores FILE` writes them (each row scored by a model that never saw
 * its source), swept over a threshold for each signal: a row is flagged when its toxic score
 * reaches the toxic threshold or its compliance score the compliance threshold. The pick is the
 * pair with the best macro F1 over the held-out sources with both labels, among those whose macro
 * FPR over the sources with safe rows stays within `--max-fpr` and whose ordinary helpful answers
 * are each flagged at most `--max-helpful-fpr`. One shared threshold (the diagonal) is printed
 * beside it. The fold models' own out-of-fold thresholds are not used here: they chase F1 on
 * sources where most rows are toxic, which bought recall with a third of some sources' safe rows
 * flagged.
 *
 *   npx tsx training/content-moderation/loso-sweep.ts --scores A.jsonl,B.jsonl [--max-fpr 0.1] [--max-helpful-fpr 0.02]
 *
 * `--at T,C` prints instead each held-out source's figures at toxic threshold T and compliance
 * threshold C (the model card's table); `--at fold`, at each fold's own threshold as loso.ts's
 * verdict table does, so runs over several `--only` lists give one macro (with their
 * `--scores-int8` files, the int8 encoder's).
 */
import { flag, parseFlags, UsageError, usageOf } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain } from "../lib/main.js";
import { atThreshold, type Scored } from "../lib/metrics.js";
import { binaryFigures } from "./evaluate.js";
import type { Signal } from "./example.js";

const USAGE = "npx tsx training/content-moderation/loso-sweep.ts --scores FILE,… [flags]";
const FLAGS = {
  scores: flag.string("", "comma-separated score files written by loso.ts --scores"),
  maxFpr: flag.number(0.1, "macro FPR ceiling over the held-out sources with safe rows", { min: 0, max: 1 }),
  maxHelpfulFpr: flag.number(0.02, "FPR ceiling on each source of ordinary helpful answers", {
    min: 0,
    max: 1,
  }),
  at: flag.string(
    "",
    "TOXIC,COMPLIANCE: print each held-out source's figures at these thresholds; `fold`: the verdict at each fold's own threshold (loso.ts's verdict table, over every file)",
  ),
};

/** The sources of ordinary helpful answers (training/content-moderation/data-responses.ts). */
const HELPFUL = new Set(["alpaca-outputs", "gpteacher-roleplay", "self-instruct"]);

export interface SignalRow {
  readonly label: 0 | 1;
  readonly signals: Readonly<Record<Signal, number>>;
}

/** A row as loso.ts --scores writes it. */
export interface ScoreLine extends SignalRow {
  readonly source: string;
  readonly threshold: number;
  readonly verdict: number;
}

/**
 * The row loso.ts's verdict table judges: flagged when the verdict reaches the fold's own
 * threshold. Both signals become verdict ÷ threshold, so thresholds of 1 flag exactly those rows
 * and the sweep's figures apply unchanged (within a source one threshold: the ranking is kept).
 */
export const atFoldThreshold = (l: ScoreLine): SignalRow => {
  const scaled = l.verdict / l.threshold;
  return { label: l.label, signals: { toxic: scaled, compliance: scaled } };
};

export type OperatingPoints = Readonly<Record<Signal, number>>;

export interface SweepPoint {
  readonly at: OperatingPoints;
  readonly f1: number;
  readonly fpr: number;
  readonly recall: number;
  readonly helpfulFpr: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * A row as one score that reaches 1 exactly when either signal reaches its threshold (the same
 * rule the model's verdict applies), so the shared metrics code at threshold 1 counts the flags.
 */
const asScored = (r: SignalRow, at: OperatingPoints): Scored => ({
  score: Math.max(r.signals.toxic / at.toxic, r.signals.compliance / at.compliance),
  label: r.label,
});

/** Macro figures at one pair of thresholds over per-source rows. */
export function macroAt(
  bySource: ReadonlyMap<string, readonly SignalRow[]>,
  at: OperatingPoints,
): SweepPoint {
  const f1: number[] = [];
  const fpr: number[] = [];
  const recall: number[] = [];
  let helpfulFpr = 0;
  for (const [source, rows] of bySource) {
    const positives = rows.filter((r) => r.label === 1).length;
    const m = atThreshold(
      rows.map((r) => asScored(r, at)),
      1,
    );
    if (positives > 0 && positives < rows.length) f1.push(m.f1);
    if (positives < rows.length) fpr.push(m.fpr);
    if (positives > 0) recall.push(m.recall);
    if (HELPFUL.has(source)) helpfulFpr = Math.max(helpfulFpr, m.fpr);
  }
  return { at, f1: mean(f1), fpr: mean(fpr), recall: mean(recall), helpfulFpr };
}

/** The best point within both ceilings, or null if none is. */
export function pick(points: readonly SweepPoint[], maxFpr: number, maxHelpfulFpr: number) {
  const ok = points.filter((p) => p.fpr <= maxFpr && p.helpfulFpr <= maxHelpfulFpr);
  return ok.reduce<SweepPoint | null>((best, p) => (best === null || p.f1 > best.f1 ? p : best), null);
}

/** Each held-out source's figures at one pair of thresholds, as a Markdown table. */
function perSource(bySource: ReadonlyMap<string, readonly SignalRow[]>, at: OperatingPoints): string[] {
  const fmt = (x: number, shown: boolean) => (shown && Number.isFinite(x) ? x.toFixed(3) : "–");
  const lines = [
    "| held-out source | n | unsafe | ROC-AUC | precision | recall | F1 | FPR |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [source, rows] of bySource) {
    const f = binaryFigures(
      rows.map((r) => asScored(r, at)),
      1,
    );
    const both = f.positives > 0 && f.positives < f.n;
    const safe = f.positives < f.n;
    lines.push(
      `| ${source} | ${f.n} | ${f.positives} | ${fmt(f.rocAuc, both)} | ${fmt(f.precision, both)} | ${fmt(f.recall, f.positives > 0)} | ${fmt(f.f1, both)} | ${fmt(f.fpr, safe)} |`,
    );
  }
  return lines;
}

const GRID = Array.from({ length: 91 }, (_, i) => (5 + i) / 100);

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const files = flags.scores.split(",").filter(Boolean);
  if (files.length === 0)
    throw new UsageError("--scores: give the files loso.ts --scores wrote", usageOf(USAGE, FLAGS));
  const fold = flags.at === "fold";
  const bySource = new Map<string, SignalRow[]>();
  for (const file of files)
    for (const l of readJsonl<ScoreLine>(file)) {
      const rows = bySource.get(l.source) ?? [];
      rows.push(fold ? atFoldThreshold(l) : { label: l.label, signals: l.signals });
      bySource.set(l.source, rows);
    }
  if (flags.at) {
    const [toxic, compliance] = fold ? [1, 1] : flags.at.split(",").map(Number);
    if (!(toxic && compliance && toxic <= 1 && compliance <= 1))
      throw new UsageError("--at: give TOXIC,COMPLIANCE, two thresholds in (0, 1]", usageOf(USAGE, FLAGS));
    const at = { toxic, compliance };
    for (const line of perSource(bySource, at)) console.log(line);
    const p = macroAt(bySource, at);
    console.log(
      `\nmacro F1 ${p.f1.toFixed(3)}, macro FPR ${p.fpr.toFixed(3)}, macro recall ${p.recall.toFixed(3)}, worst helpful-answer FPR ${p.helpfulFpr.toFixed(3)}`,
    );
    return;
  }
  const shared = GRID.map((t) => macroAt(bySource, { toxic: t, compliance: t }));
  const pairs = GRID.flatMap((toxic) => GRID.map((compliance) => macroAt(bySource, { toxic, compliance })));
  const fmt = (x: number) => x.toFixed(3);
  console.log(`${bySource.size} held-out sources\n`);
  console.log("one shared threshold:\n");
  console.log("| threshold | macro F1 | macro FPR | macro recall | worst helpful-answer FPR |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const p of shared.filter((_, i) => i % 5 === 0))
    console.log(
      `| ${p.at.toxic.toFixed(2)} | ${fmt(p.f1)} | ${fmt(p.fpr)} | ${fmt(p.recall)} | ${fmt(p.helpfulFpr)} |`,
    );
  const say = (name: string, p: SweepPoint | null) =>
    console.log(
      p
        ? `${name}: toxic ${p.at.toxic.toFixed(2)}, compliance ${p.at.compliance.toFixed(2)}: macro F1 ${fmt(p.f1)}, macro FPR ${fmt(p.fpr)}, macro recall ${fmt(p.recall)}, worst helpful-answer FPR ${fmt(p.helpfulFpr)}`
        : `${name}: no point keeps macro FPR ≤ ${flags.maxFpr} and helpful-answer FPR ≤ ${flags.maxHelpfulFpr}`,
    );
  console.log("");
  say("pick, one shared threshold", pick(shared, flags.maxFpr, flags.maxHelpfulFpr));
  say("pick, a threshold for each signal", pick(pairs, flags.maxFpr, flags.maxHelpfulFpr));
}

runMain(import.meta.url, main);
