import type { BatchSummary, Metrics } from "../summary.js";
import { withheldText } from "../too-few.js";
import { esc, int, num, pct } from "./html.js";

/** The report's top: headline figures, the confusion matrix, latency and the gates. */

const ms = (v: number | null, withheld?: string) =>
  v === null ? esc(withheldText(withheld) ?? "–") : `${num(v, 2)} ms`;

const card = (label: string, value: string, hint = "") =>
  `<div class="card"><div class="label">${label}</div><div class="value">${value}</div>${hint ? `<div class="hint">${hint}</div>` : ""}</div>`;

export function headline(s: BatchSummary): string {
  const m = s.metrics;
  const cards = [
    card(
      "rows",
      int(s.rows),
      s.skipped > 0 ? `${int(s.skipped)} invalid skipped` : `${int(s.labelled)} labelled`,
    ),
    card("flagged", int(s.flagged), pct(s.flag_rate)),
  ];
  if (m) {
    cards.push(
      card("precision", pct(m.precision)),
      card("recall", pct(m.recall)),
      card("F1", num(m.f1)),
      card("accuracy", pct(m.accuracy)),
      card("false-positive rate", pct(m.fpr)),
      card("false-negative rate", pct(m.fnr)),
    );
  }
  cards.push(card("throughput", s.throughput_rows_per_s === null ? "–" : `${s.throughput_rows_per_s}/s`));
  return `<div class="cards">${cards.join("")}</div>`;
}

/** Cells shaded by their share of their label's rows, so a matrix reads at a glance. */
export function confusionMatrix(m: Metrics): string {
  const positives = m.tp + m.fn;
  const negatives = m.fp + m.tn;
  const cell = (name: string, n: number, of: number, good: boolean) => {
    const share = of === 0 ? 0 : n / of;
    const alpha = (0.08 + 0.6 * share).toFixed(2);
    const colour = good ? `rgba(22,163,74,${alpha})` : `rgba(220,38,38,${alpha})`;
    return `<td class="cm" style="background:${colour}"><b>${int(n)}</b><span>${name} · ${pct(of === 0 ? null : share)}</span></td>`;
  };
  return `<table class="confusion">
<thead><tr><th></th><th>label + (${int(positives)})</th><th>label − (${int(negatives)})</th></tr></thead>
<tbody>
<tr><th>flagged</th>${cell("true positives", m.tp, positives, true)}${cell("false positives", m.fp, negatives, false)}</tr>
<tr><th>allowed</th>${cell("false negatives", m.fn, positives, false)}${cell("true negatives", m.tn, negatives, true)}</tr>
</tbody></table>`;
}

/**
 * Engine time per row, p50/p95/p99/max as bars against the slowest, so a long tail stands out; then
 * a row's wall time within its batch, which is the batch's and would read as per-row latency.
 */
export function latency(s: BatchSummary): string {
  const l = s.engine_ms_per_row;
  const entries: [string, number | null, string?][] = [
    ["p50", l.p50_ms, l.withheld?.p50_ms],
    ["p95", l.p95_ms, l.withheld?.p95_ms],
    ["p99", l.p99_ms, l.withheld?.p99_ms],
    ["mean", l.mean_ms],
    ["max", l.max_ms],
  ];
  const max = Math.max(...entries.map(([, v]) => v ?? 0), 1e-9);
  const rows = entries
    .map(
      ([name, v, withheld]) =>
        `<div class="lat"><span class="k">${name}</span><span class="track"><span class="fill" style="width:${(((v ?? 0) / max) * 100).toFixed(1)}%"></span></span><span class="v">${v === null ? esc(withheldText(withheld) ?? "–") : `${num(v, 2)} ms`}</span></div>`,
    )
    .join("");
  const elapsed = `${(s.elapsed_ms / 1000).toFixed(1)} s`;
  const b = s.latency;
  const batch = `<p class="muted">Engine time per row: each batch's engine time divided by its rows. A row's own wall time spans its batch (one shared encoder call): p50 ${ms(b.p50_ms, b.withheld?.p50_ms)}, p95 ${ms(b.p95_ms, b.withheld?.p95_ms)}, p99 ${ms(b.p99_ms, b.withheld?.p99_ms)}.</p>`;
  return `${rows}${batch}<p class="muted">${int(s.rows)} rows in ${elapsed} ${s.concurrency === 0 ? "on the main thread" : `on ${s.concurrency} workers`}: ${s.throughput_rows_per_s ?? "–"} rows/s</p>`;
}

export function gates(s: BatchSummary): string {
  if (s.gates.length === 0) return "";
  const unlike = s.baseline_warnings
    .map((w) => `<p class="banner">Baseline not comparable: ${esc(w)}.</p>`)
    .join("");
  const items = s.gates
    .map(
      (g) =>
        `<li class="${g.passed ? "pass" : "fail"}"><b>${g.passed ? "pass" : "FAIL"}</b> ${esc(g.name)}: ${esc(g.message)}</li>`,
    )
    .join("");
  return `<section><h2>Gates</h2>${unlike}<ul class="gates">${items}</ul></section>`;
}
