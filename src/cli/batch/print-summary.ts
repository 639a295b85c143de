import { describeOrigin } from "../../config/origin.js";
import { describeThreshold } from "../../eval/effective-threshold.js";
import { excerpt } from "../../eval/excerpt.js";
import { num, pct } from "../../eval/figures.js";
import type { BatchSummary, GuardrailSummary, Metrics } from "../../eval/summary.js";
import { withheldText } from "../../eval/too-few.js";
import { type Paint, table } from "../output.js";
import { renderComparison } from "./print-compare.js";

const ms = (v: number | null, withheld?: string) =>
  v === null ? (withheldText(withheld) ?? "–") : `${v.toFixed(2)} ms`;

function metricLines(m: Metrics, p: Paint): string {
  return (
    table([
      ["", p.dim("label +"), p.dim("label −")],
      [p.dim("flagged"), `tp ${m.tp}`, `fp ${m.fp}`],
      [p.dim("allowed"), `fn ${m.fn}`, `tn ${m.tn}`],
    ]) +
    table([
      ["precision", "recall", "f1", "accuracy", "fpr", "fnr"].map((h) => p.dim(h)),
      [pct(m.precision), pct(m.recall), num(m.f1), pct(m.accuracy), pct(m.fpr), pct(m.fnr)],
    ])
  );
}

function guardrailRows(s: BatchSummary, p: Paint): string {
  const entries = Object.entries(s.guardrails) as [string, GuardrailSummary][];
  if (entries.length === 0) return "";
  const rows = [
    [
      "guardrail",
      "flagged",
      "alone tp",
      "alone fp",
      "errors",
      "threshold",
      "auc",
      "pr auc",
      "recall@1%fpr",
    ].map(p.dim),
  ];
  for (const [id, g] of entries) {
    rows.push([
      id,
      String(g.flagged),
      String(g.tp),
      String(g.fp),
      String(g.errors),
      describeThreshold(g),
      num(g.auc),
      num(g.pr_auc),
      g.scored > 0 ? (withheldText(g.withheld?.recall_at_1pct_fpr) ?? pct(g.recall_at_1pct_fpr)) : "–",
    ]);
  }
  return `\n${table(rows)}`;
}

/** Each guardrail's own verdicts against the labels, as if the profile ran it alone. */
function standaloneRows(s: BatchSummary, p: Paint): string {
  const entries = Object.entries(s.guardrails) as [string, GuardrailSummary][];
  if (entries.length === 0 || s.metrics === null) return "";
  const rows = [
    ["on its own", "tp", "fp", "tn", "fn", "precision", "recall", "fpr"].map(p.dim),
    ...entries.map(([id, g]) => {
      const o = g.standalone;
      if (o === null) return [id, "–", "–", "–", "–", "–", "–", "–"];
      return [id, ...[o.tp, o.fp, o.tn, o.fn].map(String), pct(o.precision), pct(o.recall), pct(o.fpr)];
    }),
  ];
  return `\n${table(rows)}`;
}

function sweepTables(s: BatchSummary, p: Paint): string {
  let out = "";
  for (const [id, g] of Object.entries(s.guardrails) as [string, GuardrailSummary][]) {
    if (g.sweep) {
      const source = g.threshold_source === "model" ? "model's own" : "profile";
      const current = g.threshold === null ? "" : p.dim(` (${source}: ${g.threshold})`);
      out += `\n${p.bold(`${id} threshold sweep`)}${current}\n`;
      out += table([
        ["threshold", "precision", "recall", "fpr", "f1"].map(p.dim),
        ...g.sweep.map((pt) => [
          String(pt.threshold),
          pct(pt.precision),
          pct(pt.recall),
          pct(pt.fpr),
          num(pt.f1),
        ]),
      ]);
    }
    const r = g.recommendation;
    if (r) {
      const target = `${r.target.metric} ${r.target.metric === "fpr" ? "≤" : "≥"} ${r.target.value}`;
      out +=
        r.threshold === null
          ? `${id}: ${p.yellow(`no threshold meets ${target}`)} (${r.reason})\n`
          : `${id}: recommended threshold ${p.bold(String(r.threshold))} for ${target}: precision ${pct(r.at?.precision)}, recall ${pct(r.at?.recall)}, fpr ${pct(r.at?.fpr)}\n`;
    }
  }
  return out;
}

function categoryRows(s: BatchSummary, p: Paint): string {
  const entries = Object.entries(s.categories);
  if (entries.length === 0) return "";
  return `\n${table([
    ["category", "rows", "flagged", "precision", "recall", "f1", "fpr"].map(p.dim),
    ...entries.map(([name, c]) => [
      // A category is a cell of the data set: one of 1 MB would pad every row of the table to it.
      excerpt(name, 40),
      String(c.rows),
      String(c.flagged),
      pct(c.precision),
      pct(c.recall),
      num(c.f1),
      pct(c.fpr),
    ]),
  ])}`;
}

function piiEntityRows(s: BatchSummary, p: Paint): string {
  const entries = Object.entries(s.pii_entities ?? {});
  if (entries.length === 0) return "";
  return `\n${p.bold("pii by entity type")} ${p.dim("(rows whose category names the type)")}\n${table([
    ["entity", "rows", "found", "reported", "recall", "precision"].map(p.dim),
    ...entries.map(([type, e]) => [
      type,
      String(e.rows),
      String(e.found),
      String(e.reported),
      pct(e.recall),
      pct(e.precision),
    ]),
  ])}`;
}

/** The plain-text summary: no escape codes unless `p` adds them. */
export function renderSummary(s: BatchSummary, p: Paint): string {
  const head = [
    `${p.bold(s.file)}: ${s.rows} rows${s.interrupted ? p.yellow(" (interrupted)") : ""}, ${s.flagged} flagged (${pct(s.flag_rate)})`,
    `profile ${s.profile}, ${s.mode} mode${s.skipped > 0 ? `, ${s.skipped} invalid rows skipped` : ""}${s.errors > 0 ? p.yellow(`, ${s.errors} rows with guardrail errors`) : ""}`,
    p.dim(describeOrigin(s.profile_file, s)),
  ].join("\n");
  const metrics = s.metrics
    ? `\n\n${metricLines(s.metrics, p)}`
    : `\n${p.dim("no labels: flag rates only (name the label column with --label-column)")}`;
  const e = s.engine_ms_per_row;
  const l = s.latency;
  const speed =
    `\nengine time per row (its batch's time / its rows): p50 ${ms(e.p50_ms, e.withheld?.p50_ms)}, p95 ${ms(e.p95_ms, e.withheld?.p95_ms)}, p99 ${ms(e.p99_ms, e.withheld?.p99_ms)}; ${s.throughput_rows_per_s ?? "–"} rows/s (concurrency ${s.concurrency})\n` +
    p.dim(
      `a row's wall time, checked alongside its batch: p50 ${ms(l.p50_ms, l.withheld?.p50_ms)}, p95 ${ms(l.p95_ms, l.withheld?.p95_ms)}, p99 ${ms(l.p99_ms, l.withheld?.p99_ms)}\n`,
    );
  const gates = s.gates
    .map((g) => `${g.passed ? p.green("pass") : p.red("FAIL")} ${g.name}: ${g.message}\n`)
    .join("");
  const compare = s.compare ? renderComparison(s.compare, p) : "";
  return `${head}${metrics}${guardrailRows(s, p)}${standaloneRows(s, p)}${categoryRows(s, p)}${piiEntityRows(s, p)}${sweepTables(s, p)}${compare}${speed}${gates ? `\n${gates}` : ""}`;
}
