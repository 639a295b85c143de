import { comparisonTables, rowCount, type TextTable } from "../../eval/compare-format.js";
import type { CompareSummary } from "../../eval/compare-summary.js";
import { excerpt } from "../../eval/excerpt.js";
import { type Paint, table } from "../output.js";

/** Flipped rows the terminal shows each way; --json and the report keep more, every one is counted. */
export const FLIPPED_SHOWN = 10;

const padded = (t: TextTable, p: Paint) => table([t.head.map(p.dim), ...t.rows]);

/** The first FLIPPED_SHOWN flips, their ids and texts cut to fit a line. */
function flipTable(t: TextTable, count: number, who: string, p: Paint): string {
  if (count === 0) return "";
  const rows = t.rows
    .slice(0, FLIPPED_SHOWN)
    .map(([row, id, ...rest]) => [
      row ?? "",
      excerpt(id ?? "", 20),
      ...rest.slice(0, -1),
      excerpt(rest.at(-1) ?? "", 60),
    ]);
  const more = count > rows.length ? p.dim(` (first ${rows.length} shown)`) : "";
  return `${p.bold(`flagged by ${who} only`)}: ${rowCount(count)}${more}\n${padded({ head: t.head, rows }, p)}`;
}

/** The `--compare` section of the terminal summary: both profiles' figures, the deltas, the test and the flips. */
export function renderComparison(c: CompareSummary, p: Paint): string {
  const [a, b] = [c.a.profile, c.b.profile];
  const t = comparisonTables(c, [a, b, `Δ ${b} − ${a}`]);
  const head = `${p.bold(`${a} vs ${b}`)} on the same ${c.rows} rows (${c.labelled} labelled); ${p.dim(`the gates judge ${a}, ${b} is for comparison (${c.b.profile_file})`)}`;
  const guardrails =
    t.guardrails.rows.length === 0
      ? ""
      : `\n${p.bold(`each guardrail on its own, ${a} → ${b}`)}\n${padded(t.guardrails, p)}`;
  const { a_only, b_only } = c.flipped;
  const flips =
    a_only.count + b_only.count === 0
      ? `${p.dim("no row's verdict flipped")}\n`
      : flipTable(t.flips.a_only, a_only.count, a, p) + flipTable(t.flips.b_only, b_only.count, b, p);
  return `\n${head}\n${padded(t.overall, p)}${t.verdict}\n${guardrails}\n${flips}`;
}
