import type { Example } from "./example.js";
import { type Metrics, metricsAt, type Scored } from "./metrics.js";

export interface Row {
  name: string;
  metrics: Metrics;
}

type Evaluated = { example: Example; score: number };

const scored = (list: Evaluated[]): Scored[] => list.map((e) => ({ score: e.score, label: e.example.label }));
const prompts = (list: Evaluated[]) => list.filter((e) => e.example.kind !== "harmful-plain");

/** The slices the model card reports, each at the bundled threshold. */
export function slices(test: Evaluated[], heldout: Evaluated[], threshold: number): Row[] {
  const row = (name: string, list: Evaluated[]): Row => ({
    name,
    metrics: metricsAt(scored(list), threshold),
  });
  const benign = (list: Evaluated[]) => list.filter((e) => e.example.label === 0);
  const attacks = (list: Evaluated[]) => list.filter((e) => e.example.label === 1);
  const both = [...test, ...heldout];
  const rows: Row[] = [
    row("test split (grouped, in-distribution)", prompts(test)),
    row("held-out sources (deepset, promptmap, self_instruct)", prompts(heldout)),
    row("all held-out data", prompts(both)),
    row(
      "deepset (held out, EN+DE)",
      heldout.filter((e) => e.example.source === "deepset"),
    ),
    row("hard negatives (test split)", [
      ...benign(test).filter((e) => e.example.kind === "hard"),
      ...attacks(test),
    ]),
    row("long benign documents (test split)", [
      ...benign(test).filter((e) => e.example.kind === "long"),
      ...attacks(test),
    ]),
    row("indirect: planted in e-mails (test split)", [
      ...attacks(test).filter((e) => e.example.kind === "indirect"),
      ...benign(test).filter((e) => e.example.kind === "long"),
    ]),
  ];
  const sources = [...new Set(both.map((e) => e.example.source))].sort();
  for (const source of sources)
    rows.push(
      row(
        `source: ${source}`,
        both.filter((e) => e.example.source === source),
      ),
    );
  return rows;
}

const fmt = (x: number | null, digits = 3) => (x === null ? "–" : x.toFixed(digits));

export function markdownTable(rows: Row[]): string {
  const lines = [
    "| slice | n | attacks | ROC-AUC | precision | recall | F1 | FPR | recall @1% FPR |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { name, metrics: m } of rows) {
    lines.push(
      `| ${name} | ${m.n} | ${m.positives} | ${fmt(m.auc)} | ${fmt(m.precision)} | ${fmt(m.recall)} | ${fmt(m.f1)} | ${fmt(m.fpr)} | ${fmt(m.recallAt1Fpr)} |`,
    );
  }
  return lines.join("\n");
}

/** Replaces the text between the metrics markers of a model card. */
export function spliceCard(card: string, body: string): string {
  const start = "<!-- metrics:start -->";
  const end = "<!-- metrics:end -->";
  const a = card.indexOf(start);
  const b = card.indexOf(end);
  if (a < 0 || b < a) return `${card.trimEnd()}\n\n${start}\n${body}\n${end}\n`;
  return `${card.slice(0, a + start.length)}\n${body}\n${card.slice(b)}`;
}

/**
 * One line per threshold rule, same scores: F1 / FPR / recall on the test split, on the held-out
 * sources, on all held-out data, and the hard-negative FPR (rows as `slices` orders them).
 */
export function ruleTable(rules: { name: string; threshold: number; rows: Row[] }[]): string {
  const lines = [
    "| rule | threshold | test F1 / FPR / recall | held-out sources F1 / FPR / recall | all held-out F1 / FPR / recall | hard-negative FPR (test) |",
    "|---|---:|---|---|---|---:|",
  ];
  const triple = (m: Metrics) => `${fmt(m.f1)} / ${fmt(m.fpr)} / ${fmt(m.recall)}`;
  for (const { name, threshold, rows } of rules) {
    const [test, held, all, , hard] = rows.map((r) => r.metrics) as Metrics[];
    lines.push(
      `| ${name} | ${threshold} | ${triple(test as Metrics)} | ${triple(held as Metrics)} | ${triple(all as Metrics)} | ${fmt((hard as Metrics).fpr)} |`,
    );
  }
  return lines.join("\n");
}
