/**
 * Leave-one-source-out for the moderation model (issue 12): each source of its training data held
 * out in turn (held-out.ts), figures for the source's own signal (toxic sources under the toxic
 * signal, compliance sources under the compliance signal) and for the verdict (the larger of
 * the two). The macro average over held-out sources is the criterion issue 12 selects by; a split
 * of pooled data has overstated quality every round.
 *
 *   npx tsx training/content-moderation/loso.ts [--data DIR] [--no-embeddings] [--only A,B] [--without A,B] [--scores FILE] [--score-int8 [--scores-int8 FILE]]
 *
 * `--scores FILE` also writes every held-out row's scores (JSON Lines), for loso-sweep.ts: the
 * threshold chosen by the macro over held-out sources, or (`--at fold`) the macro of runs over
 * several `--only` lists at each fold's own threshold, as the verdict tables here print it
 * (`--scores-int8 FILE` writes the int8 scores alike). `--score-int8` (issue 25) also scores each
 * held-out source on the int8 encoder's vectors with the same fold model, fitted on fp32 vectors
 * as the bundled one is: what an app that sets GUARDRAIL_ENCODER_PRECISION=int8 gets.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import type { Precision } from "../../src/models/use-lite/precision.js";
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import type { Scored } from "../lib/metrics.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { sourceSignals } from "./calibrate.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures } from "./evaluate.js";
import { SIGNALS, type Signal } from "./example.js";
import { scoreHeldOut } from "./held-out.js";
import { buildPools } from "./splits.js";
import { headOptions } from "./train-options.js";

const USAGE = "npx tsx training/content-moderation/loso.ts [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  noEmbeddings: flag.boolean("train and score the n-gram heads alone"),
  only: flag.string("", "comma-separated sources to hold out, in this order (default: every source)"),
  without: flag.string("", "comma-separated sources to leave out of the data altogether (an experiment)"),
  scores: flag.string("", "also write each held-out row's scores to this JSON Lines file"),
  scoreInt8: flag.boolean(
    "also score each held-out source with the int8 encoder's vectors (the fp32-fitted fold model)",
  ),
  scoresInt8: flag.string("", "with --score-int8, also write each held-out row's int8 scores to this file"),
};

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A table row, and the F1 / FPR that enter the macro averages (null where a label is missing). */
function row(name: string, what: string, threshold: number, scored: Scored[]) {
  const f = binaryFigures(scored, threshold);
  const both = f.positives > 0 && f.positives < f.n;
  const safe = f.positives < f.n;
  const line = `| ${name} | ${what} | ${f.n} | ${f.positives} | ${threshold} | ${both ? fmt(f.rocAuc) : "–"} | ${both ? fmt(f.precision) : "–"} | ${f.positives ? fmt(f.recall) : "–"} | ${both ? fmt(f.f1) : "–"} | ${safe ? fmt(f.fpr) : "–"} |`;
  return { line, f1: both ? f.f1 : null, fpr: safe ? f.fpr : null };
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  if (flags.scoreInt8 && flags.noEmbeddings)
    throw new UsageError("--score-int8 scores the encoder heads: drop --no-embeddings", USAGE);
  if (flags.scoresInt8 && !flags.scoreInt8) throw new UsageError("--scores-int8 needs --score-int8", USAGE);
  const log = timedLog();
  const options = headOptions(SEED);
  const without = flags.without.split(",").filter(Boolean);
  const pools = buildPools(flags.data, REPO, SEED, { holdout: false, without });
  const vectors = flags.noEmbeddings
    ? undefined
    : (
        await embedTexts(
          pools.binary.map((r) => r.text),
          log,
        )
      ).vectors;
  const signalOf = sourceSignals(pools.binary);
  const only = flags.only.split(",").filter(Boolean);
  for (const file of [flags.scores, flags.scoresInt8]) if (file) writeFileSync(file, "");
  const sources = only.length > 0 ? only.filter((s) => signalOf.has(s)) : [...signalOf.keys()];
  // Only the held-out rows are scored, so only they need int8 vectors.
  const held = new Set(sources);
  const int8 =
    flags.scoreInt8 && vectors
      ? (
          await embedTexts(
            pools.binary.filter((r) => held.has(r.source)).map((r) => r.text),
            log,
            "int8",
          )
        ).vectors
      : undefined;
  const views: Precision[] = int8 ? ["fp32", "int8"] : ["fp32"];
  const tables = new Map(views.map((v) => [v, newTables()]));
  for (const source of sources) {
    const { threshold, scores, int8Scores } = scoreHeldOut(pools.binary, source, options, vectors, int8);
    const signal = signalOf.get(source);
    const write = (file: string, rows: typeof scores) =>
      appendFileSync(
        file,
        rows.map((x) => `${JSON.stringify({ source, signal: signal ?? null, threshold, ...x })}\n`).join(""),
      );
    if (flags.scores) write(flags.scores, scores);
    if (flags.scoresInt8 && int8Scores) write(flags.scoresInt8, int8Scores);
    for (const view of views) {
      const t = tables.get(view) as Tables;
      const scored = view === "int8" ? (int8Scores ?? []) : scores;
      const add = (table: Signal | "verdict", rows: Scored[]) => {
        const r = row(source, signal ?? "safe only", threshold, rows);
        t[table].lines.push(r.line);
        // Each row as it comes, too: a run over many sources takes a while.
        log(`${view} ${table} ${r.line}`);
        if (r.f1 !== null) t[table].f1.push(r.f1);
        if (r.fpr !== null) t[table].fpr.push(r.fpr);
      };
      add(
        "verdict",
        scored.map((s) => ({ score: s.verdict, label: s.label })),
      );
      // A signal is measured on its own sources and on the sources of safe rows only.
      for (const s of SIGNALS)
        if (signal === s || signal === undefined)
          add(
            s,
            scored.map((x) => ({ score: x.signals[s], label: x.label })),
          );
    }
    log(`held out ${source}`);
  }
  for (const view of views) {
    if (int8)
      console.log(`\n## ${view === "int8" ? "scored on the int8 encoder's vectors" : "fp32 (as trained)"}`);
    const t = tables.get(view) as Tables;
    for (const name of ["toxic", "compliance", "verdict"] as const) {
      console.log(`\n${name === "verdict" ? "verdict (the larger signal)" : `${name} signal`}\n`);
      console.log(
        "| held-out source | signal | n | unsafe | threshold | ROC-AUC | precision | recall | F1 | FPR |",
      );
      console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of t[name].lines) console.log(r);
      const m = t[name];
      console.log(
        `\n${name}: macro F1 over the ${m.f1.length} held-out sources with both labels ${fmt(mean(m.f1))}; macro FPR over the ${m.fpr.length} with safe rows ${fmt(mean(m.fpr))}`,
      );
    }
  }
}

interface Table {
  lines: string[];
  f1: number[];
  fpr: number[];
}
type Tables = Record<Signal | "verdict", Table>;
const newTables = (): Tables => ({
  verdict: { lines: [], f1: [], fpr: [] },
  toxic: { lines: [], f1: [], fpr: [] },
  compliance: { lines: [], f1: [], fpr: [] },
});

runMain(import.meta.url, main);
