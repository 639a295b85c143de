import { comparisonTables, rowCount, type TextTable } from "../compare-format.js";
import type { Flips } from "../compare-summary.js";
import type { BatchSummary } from "../summary.js";
import { esc, htmlTable, int } from "./html.js";

/** The `--compare` section of the report: the terminal's figures, and every flipped row kept. */

const escaped = (t: TextTable, numeric: number[] = []) =>
  htmlTable(
    t.head.map(esc),
    t.rows.map((r) => r.map(esc)),
    numeric,
  );

function flipTable(title: string, t: TextTable, flips: Flips): string {
  if (flips.count === 0) return `<h4>${esc(title)}</h4><p class="muted">None.</p>`;
  const shown = flips.rows.length < flips.count ? ` (the first ${int(flips.rows.length)} in file order)` : "";
  // The text column in the report's monospace block, as the worst-mistakes tables show texts.
  const rows = t.rows.map((r) =>
    r.map((cell, i) => (i === r.length - 1 ? `<div class="text">${esc(cell)}</div>` : esc(cell))),
  );
  return `<h4>${esc(title)}: ${esc(rowCount(flips.count))}${shown}</h4>${htmlTable(t.head.map(esc), rows, [0])}`;
}

export function comparisonSection(s: BatchSummary): string {
  const c = s.compare;
  if (!c) return "";
  const [a, b] = [c.a.profile, c.b.profile];
  const t = comparisonTables(c, [`A: ${a}`, `B: ${b}`, "Δ B − A"]);
  const test = `<p${c.mcnemar === null ? ' class="warn"' : ""}>${esc(t.verdict)}.</p>`;
  const perGuardrail =
    t.guardrails.rows.length === 0
      ? ""
      : `<h3>Each guardrail on its own, A → B</h3><p class="muted">Its own verdicts against the labels, as if it were the profile's only guardrail; McNemar's test where both profiles run it.</p>${escaped(t.guardrails)}`;
  const flips = `${flipTable(`Flagged by A (${a}) only`, t.flips.a_only, c.flipped.a_only)}${flipTable(`Flagged by B (${b}) only`, t.flips.b_only, c.flipped.b_only)}`;
  return `<section><h2>Profile A (${esc(a)}) compared with B (${esc(b)})</h2>
<p class="muted">Both profiles judged the same ${int(c.rows)} rows (${int(c.labelled)} labelled) in one pass. The gates judge A; B is for comparison. A: ${esc(c.a.profile_file)} · B: ${esc(c.b.profile_file)}</p>
${escaped(t.overall, [...t.overall.head.keys()].slice(1))}${test}${perGuardrail}
<h3>Rows whose verdict flipped</h3>${flips}</section>`;
}
