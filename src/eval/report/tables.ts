import { describeThreshold } from "../effective-threshold.js";
import { describeScore } from "../examples.js";
import type { BatchSummary, GuardrailSummary, RowExample } from "../summary.js";
import { withheldText } from "../too-few.js";
import { histogramChart, prChart, rocChart } from "./guardrail-charts.js";
import { esc, htmlTable, int, num, pct } from "./html.js";

/** The per-guardrail, per-category and worst-examples sections. */

const entries = (s: BatchSummary) => Object.entries(s.guardrails) as [string, GuardrailSummary][];

export function guardrailTable(s: BatchSummary): string {
  const rows = entries(s).map(([id, g]) => [
    esc(id),
    int(g.flagged),
    int(g.tp),
    int(g.fp),
    int(g.errors),
    g.scored > 0 ? int(g.scored) : "–",
    esc(describeThreshold(g)),
    num(g.auc),
    num(g.pr_auc),
    g.scored > 0 ? esc(withheldText(g.withheld?.recall_at_1pct_fpr) ?? pct(g.recall_at_1pct_fpr)) : "–",
  ]);
  if (rows.length === 0) return '<p class="muted">No guardrail was enabled.</p>';
  return htmlTable(
    [
      "guardrail",
      "flagged",
      "alone: tp",
      "alone: fp",
      "errors",
      "scored",
      "threshold",
      "ROC-AUC",
      "PR-AUC",
      "recall @ 1% FPR",
    ],
    rows,
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
}

/** Each guardrail's own verdicts against the labels, as if the profile ran it alone. */
export function standaloneTable(s: BatchSummary): string {
  if (s.metrics === null || entries(s).length === 0) return "";
  const rows = entries(s).map(([id, g]) => {
    const o = g.standalone;
    if (o === null) return [esc(id), "–", "–", "–", "–", "–", "–", "–"];
    return [esc(id), ...[o.tp, o.fp, o.tn, o.fn].map(int), pct(o.precision), pct(o.recall), pct(o.fpr)];
  });
  return `<h3>Each guardrail on its own</h3><p class="muted">Its own verdicts against the labels, as if it were the profile's only guardrail.</p>${htmlTable(
    ["guardrail", "tp", "fp", "tn", "fn", "precision", "recall", "FPR"],
    rows,
    [1, 2, 3, 4, 5, 6, 7],
  )}`;
}

function sweepDetails(g: GuardrailSummary): string {
  const r = g.recommendation;
  const target = r ? `${r.target.metric === "fpr" ? "FPR ≤" : "recall ≥"} ${r.target.value}` : "";
  const advice = !r
    ? ""
    : r.threshold === null
      ? `<p class="warn">No threshold meets ${esc(target)}: ${esc(r.reason)}</p>`
      : `<p>Recommended threshold <b>${r.threshold}</b> for ${esc(target)}: precision ${pct(r.at?.precision)}, recall ${pct(r.at?.recall)}, FPR ${pct(r.at?.fpr)}.</p>`;
  const sweep = g.sweep
    ? `<details><summary>Threshold sweep (${g.sweep.length} thresholds)</summary>${htmlTable(
        ["threshold", "precision", "recall", "FPR", "F1"],
        g.sweep.map((p) => [
          p.threshold === g.threshold ? `<b>${p.threshold}</b>` : String(p.threshold),
          pct(p.precision),
          pct(p.recall),
          pct(p.fpr),
          num(p.f1),
        ]),
        [0, 1, 2, 3, 4],
      )}</details>`
    : "";
  return advice + sweep;
}

/** One block per guardrail that scored rows: ROC, PR and histogram side by side. */
export function guardrailCharts(s: BatchSummary): string {
  const blocks = entries(s)
    .filter(([, g]) => g.scored > 0)
    .map(([id, g]) => {
      const curves = (g.roc?.length ?? 0) > 0;
      const figs = curves
        ? [rocChart(id, g), prChart(id, g), histogramChart(id, g)]
        : [histogramChart(id, g)];
      const why = curves
        ? ""
        : '<p class="muted">No curves: they need labelled scored rows of both classes.</p>';
      const threshold = g.threshold === null ? "" : `, threshold ${esc(describeThreshold(g))}`;
      return `<div class="guardrail"><h3>${esc(id)} <span class="muted">${int(g.scored)} scored rows${threshold}</span></h3>${why}<div class="figs">${figs.map((f) => `<figure>${f}</figure>`).join("")}</div>${sweepDetails(g)}</div>`;
    });
  if (blocks.length === 0) return "";
  return `<section><h2>Scores</h2>${blocks.join("")}</section>`;
}

export function categoryTable(s: BatchSummary): string {
  const cats = Object.entries(s.categories);
  if (cats.length === 0) return "";
  const rows = cats.map(([name, c]) => [
    esc(name),
    int(c.rows),
    int(c.flagged),
    `${c.tp} / ${c.fp} / ${c.tn} / ${c.fn}`,
    pct(c.precision),
    pct(c.recall),
    num(c.f1),
    pct(c.fpr),
  ]);
  return `<section><h2>By category</h2>${htmlTable(
    ["category", "rows", "flagged", "tp / fp / tn / fn", "precision", "recall", "F1", "FPR"],
    rows,
    [1, 2, 3, 4, 5, 6, 7],
  )}</section>`;
}

export function piiEntityTable(s: BatchSummary): string {
  const entries = Object.entries(s.pii_entities ?? {});
  if (entries.length === 0) return "";
  const rows = entries.map(([type, e]) => [
    esc(type),
    int(e.rows),
    int(e.found),
    int(e.reported),
    pct(e.recall),
    pct(e.precision),
  ]);
  return `<section><h2>PII by entity type</h2><p class="muted">Rows whose category names an entity type: recall is the share of them where pii found that type; precision the share of the rows where pii reported it that are of that category.</p>${htmlTable(
    ["entity", "rows", "found", "reported", "recall", "precision"],
    rows,
    [1, 2, 3, 4, 5],
  )}</section>`;
}

function exampleTable(title: string, rows: readonly RowExample[], why: string): string {
  if (rows.length === 0) return `<h3>${title}</h3><p class="muted">None.</p>`;
  const body = rows.map((r) => [
    `${r.row}<span class="muted"> (line ${r.line})</span>${r.id === null ? "" : `<br><span class="muted">${esc(r.id)}</span>`}`,
    r.category === null ? "–" : esc(r.category),
    r.score === null ? "–" : esc(describeScore(r)),
    r.guardrails.length === 0 ? "–" : esc(r.guardrails.join(", ")),
    `<div class="text">${esc(r.text)}</div>`,
  ]);
  return `<h3>${title}</h3><p class="muted">${why}</p>${htmlTable(["row", "category", "highest score (guardrail)", "flagged by", "text"], body, [2])}`;
}

export function examples(s: BatchSummary): string {
  if (s.metrics === null) return "";
  return `<section><h2>Worst mistakes</h2>${exampleTable(
    "False positives",
    s.examples.false_positives,
    "Benign rows that were flagged, most confident first (rule-only flags first).",
  )}${exampleTable(
    "False negatives",
    s.examples.false_negatives,
    "Rows that should have been flagged and were allowed, quietest first.",
  )}</section>`;
}
