/**
 * Leave-one-source-out for the moderation model (issue 12): each source of its training data held
 * out in turn (held-out.ts), figures for the source's own signal (toxic sources under the toxic
 * signal, compliance sources under the compliance signal) and for the verdict (the larger of
 * the two). The macro average over held-out sources is the criterion issue 12 selects by; a split
 * of pooled data has overstated quality every round.
 *
 *   npx tsx training/content-moderation/loso.ts [--data DIR] [--no-embeddings] [--only A,B] [--without A,B] [--scores FILE]
 *
 * `--scores FILE` also writes every held-out row's scores (JSON Lines), for loso-sweep.ts: the
 * threshold chosen by the macro over held-out sources.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import type { Scored } from "../lib/metrics.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { sourceSignals } from "./calibrate.js";
import { embedTexts } from "./embed-cache.js";
import { binaryFigures } from "./evaluate.js";
import { SIGNALS } from "./example.js";
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
  if (flags.scores) writeFileSync(flags.scores, "");
  const sources = only.length > 0 ? only.filter((s) => signalOf.has(s)) : [...signalOf.keys()];
  const tables = { verdict: [] as string[], toxic: [] as string[], compliance: [] as string[] };
  const macro = {
    verdict: { f1: [] as number[], fpr: [] as number[] },
    toxic: { f1: [] as number[], fpr: [] as number[] },
    compliance: { f1: [] as number[], fpr: [] as number[] },
  };
  for (const held of sources) {
    const { threshold, scores } = scoreHeldOut(pools.binary, held, options, vectors);
    const signal = signalOf.get(held);
    if (flags.scores)
      appendFileSync(
        flags.scores,
        scores
          .map((x) => `${JSON.stringify({ source: held, signal: signal ?? null, threshold, ...x })}\n`)
          .join(""),
      );
    const add = (table: keyof typeof tables, scored: Scored[]) => {
      const r = row(held, signal ?? "safe only", threshold, scored);
      tables[table].push(r.line);
      // Each row as it comes, too: a run over many sources takes a while.
      log(`${table} ${r.line}`);
      if (r.f1 !== null) macro[table].f1.push(r.f1);
      if (r.fpr !== null) macro[table].fpr.push(r.fpr);
    };
    add(
      "verdict",
      scores.map((s) => ({ score: s.verdict, label: s.label })),
    );
    // A signal is measured on its own sources and on the sources of safe rows only.
    for (const s of SIGNALS)
      if (signal === s || signal === undefined)
        add(
          s,
          scores.map((x) => ({ score: x.signals[s], label: x.label })),
        );
    log(`held out ${held}`);
  }
  for (const name of ["toxic", "compliance", "verdict"] as const) {
    console.log(`\n${name === "verdict" ? "verdict (the larger signal)" : `${name} signal`}\n`);
    console.log(
      "| held-out source | signal | n | unsafe | threshold | ROC-AUC | precision | recall | F1 | FPR |",
    );
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of tables[name]) console.log(r);
    const m = macro[name];
    console.log(
      `\n${name}: macro F1 over the ${m.f1.length} held-out sources with both labels ${fmt(mean(m.f1))}; macro FPR over the ${m.fpr.length} with safe rows ${fmt(mean(m.fpr))}`,
    );
  }
}

runMain(import.meta.url, main);
