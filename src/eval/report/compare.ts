import {
  flipVerdict,
  guardrailChangeTable,
  labelMark,
  mcnemarVerdict,
  overallTable,
  rowCount,
  type TextTable,
} from "../compare-format.js";
import type { CompareSummary, Flips } from "../compare-summary.js";
import type { BatchSummary } from "../summary.js";
import { esc, htmlTable, int } from "./html.js";

/** The `--compare` section of the report: the terminal's figures, and every flipped row kept. */

const escaped = (t: TextTable, numeric: number[] = []) =>
  htmlTable(
    t.head.map(esc),
    t.rows.map((r) => r.map(esc)),
    numeric,
  );

function flipTable(title: string, flips: Flips, c: CompareSummary): string {
  if (flips.count === 0) return `<h4>${esc(title)}</h4><p class="muted">None.</p>`;
  const shown = flips.rows.length < flips.count ? ` (the first ${int(flips.rows.length)} in file order)` : "";
  const rows = flips.rows.map((r) => [
    String(r.row),
    esc(r.id ?? ""),
    labelMark(r.label),
    esc(flipVerdict(r.a)),
    esc(flipVerdict(r.b)),
    `<div class="text">${esc(r.text)}</div>`,
  ]);
  const head = ["row", "id", "label", `A: ${esc(c.a.profile)}`, `B: ${esc(c.b.profile)}`, "text"];
  return `<h4>${esc(title)}: ${esc(rowCount(flips.count))}${shown}</h4>${htmlTable(head, rows, [0])}`;
}

export function comparisonSection(s: BatchSummary): string {
  const c = s.compare;
  if (!c) return "";
  const [a, b] = [c.a.profile, c.b.profile];
  const overall = overallTable(c, [`A: ${a}`, `B: ${b}`, "Δ B − A"]);
  const test = `<p${c.mcnemar === null ? ' class="warn"' : ""}>${esc(mcnemarVerdict(c))}.</p>`;
  const guardrails = guardrailChangeTable(c);
  const perGuardrail =
    guardrails.rows.length === 0
      ? ""
      : `<h3>Each guardrail on its own, A → B</h3><p class="muted">Its own verdicts against the labels, as if it were the profile's only guardrail; McNemar's test where both profiles run it.</p>${escaped(guardrails)}`;
  return `<section><h2>Profile A (${esc(a)}) compared with B (${esc(b)})</h2>
<p class="muted">Both profiles judged the same ${int(c.rows)} rows (${int(c.labelled)} labelled) in one pass. The gates judge A; B is for comparison. A: ${esc(c.a.profile_file)} · B: ${esc(c.b.profile_file)}</p>
${escaped(overall, [...overall.head.keys()].slice(1))}${test}${perGuardrail}
<h3>Rows whose verdict flipped</h3>${flipTable(`Flagged by A (${a}) only`, c.flipped.a_only, c)}${flipTable(`Flagged by B (${b}) only`, c.flipped.b_only, c)}</section>`;
}
