import { describeThreshold } from "../../../eval/effective-threshold.js";
import { h, type Markup } from "../guardrails/markup.js";
import type { ProfileEntry } from "../guardrails/profiles.js";
import { MAX_REPORT_BYTES, type ReportSummary } from "./read-report.js";
import { type Figures, madeOn, type RecommendationRow } from "./recommendations.js";

/** As `batch --write-max-fpr` defaults: a recommendation above it needs an explicit "apply anyway". */
export const APPLY_MAX_FPR = 0.1;

const num = (x: number | null) => (x === null ? "–" : String(Math.round(x * 1e4) / 1e4));
const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

/** The upload form; `error` is why the last upload was refused. */
export function uploadForm(csrf: string, error?: string): Markup {
  return h`<p>Open a <code>guardrail batch</code> run made with <code>--target-fpr</code> or <code>--target-recall</code>: its HTML report
(<code>--report report.html</code>) or its summary (<code>--json &gt; summary.json</code>), to see each guardrail's recommended threshold and apply it to a profile.</p>
${error ? h`<div class="notice error" id="report-error" role="alert"><p>${error}</p></div>` : ""}
<form id="report-upload" method="post" action="/reports" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="${csrf}">
<div class="field"><label for="report-file">Batch report (HTML) or summary (JSON), at most ${MAX_REPORT_BYTES / 1024 / 1024} MiB</label>
<input type="file" id="report-file" name="report" accept=".html,.htm,.json,text/html,application/json" required aria-describedby="report-file-help">
<p class="help" id="report-file-help">The report carries its figures in a machine-readable form; nothing is kept after the page is shown.</p></div>
<button type="submit" class="primary" id="report-open">Open</button>
</form>`;
}

/** Before and after, side by side: the figures a person weighs before applying. */
export function figuresTable(id: string, before: Figures, after: Figures | null): Markup {
  const row = (label: string, pick: (f: Figures) => number | null, show: (x: number | null) => string) =>
    h`<tr><th scope="row">${label}</th><td>${show(pick(before))}</td><td>${after ? show(pick(after)) : "–"}</td></tr>`;
  return h`<table class="figures" id="figures-${id}"><caption>${id}: now and recommended</caption>
<thead><tr><th scope="col"></th><th scope="col">Now</th><th scope="col">Recommended</th></tr></thead>
<tbody>${row("Threshold", (f) => f.threshold, num)}${row("Precision", (f) => f.precision, num)}${row("Recall", (f) => f.recall, num)}${row("False-positive rate", (f) => f.fpr, pct)}</tbody></table>`;
}

function applyForm(
  csrf: string,
  s: ReportSummary,
  row: RecommendationRow,
  profiles: readonly ProfileEntry[],
): Markup | "" {
  if (!row.after) return "";
  const own = profiles.find((p) => madeOn(s, p)) ?? profiles.find((p) => p.name === s.profile);
  const high = row.after.fpr !== null && row.after.fpr > APPLY_MAX_FPR;
  const select = `apply-${row.id}-profile`;
  return h`<form class="apply" id="apply-${row.id}" method="post" action="/reports/apply">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="guardrail" value="${row.id}">
<input type="hidden" name="threshold" value="${row.after.threshold}">
<input type="hidden" name="report_profile" value="${s.profile}">
<input type="hidden" name="report_profile_file" value="${s.profile_file}">
<input type="hidden" name="report_config_dir" value="${s.config_dir ?? ""}">
<input type="hidden" name="figures" value="${JSON.stringify({ before: row.before, after: row.after })}">
${profiles.map((p) => h`<input type="hidden" name="sha256.${p.name}" value="${p.sha256}">`)}
<div class="field"><label for="${select}">Profile</label><select id="${select}" name="profile">
${profiles.map((p) => h`<option value="${p.name}"${p === own ? h` selected` : ""}>${p.name}${madeOn(s, p) ? " (the report's)" : ""}</option>`)}</select></div>
<div class="field"><label class="check"><input type="checkbox" name="confirm_profile" id="apply-${row.id}-confirm"> Apply even if this is not the profile file the report was made on</label></div>
${high ? h`<div class="field"><label class="check"><input type="checkbox" name="force" id="apply-${row.id}-force"> Apply although it runs at ${pct(row.after.fpr)} false positives on this data (above ${pct(APPLY_MAX_FPR)})</label></div>` : ""}
<button type="submit" class="primary" id="apply-${row.id}-button">Apply ${num(row.after.threshold)} to ${row.id}</button></form>`;
}

/** A summary's recommendations, each with its figures and an apply form. */
export function reportView(
  csrf: string,
  s: ReportSummary,
  rows: readonly RecommendationRow[],
  profiles: readonly ProfileEntry[],
): Markup {
  const none =
    rows.length === 0
      ? h`<p id="no-recommendations">This run recommends no threshold: run <code>guardrail batch</code> with <code>--target-fpr</code> or <code>--target-recall</code>.</p>`
      : "";
  return h`<p class="muted">profile <b>${s.profile}</b> (file <code>${s.profile_file}</code>) · ${s.mode} mode · ${s.rows} rows, ${s.labelled} labelled${s.interrupted ? " · interrupted: the figures cover the rows done" : ""}</p>
${none}
${rows.map(
  (row) => h`<section class="recommendation" id="rec-${row.id}"><h2>${row.id}</h2>
<p>Target ${row.target}: ${row.reason}. The run applied ${describeThreshold({ threshold: row.before.threshold, threshold_source: row.source })}.</p>
${figuresTable(row.id, row.before, row.after)}
${applyForm(csrf, s, row, profiles)}</section>`,
)}
<p><a href="/reports">Open another report</a></p>`;
}
