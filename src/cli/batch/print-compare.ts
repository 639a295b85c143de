import {
  flipVerdict,
  guardrailChangeTable,
  labelMark,
  mcnemarVerdict,
  overallTable,
  rowCount,
  type TextTable,
} from "../../eval/compare-format.js";
import type { CompareSummary, Flips } from "../../eval/compare-summary.js";
import { excerpt } from "../../eval/excerpt.js";
import { type Paint, table } from "../output.js";

/** Flipped rows the terminal shows each way; --json and the report keep more, every one is counted. */
export const FLIPPED_SHOWN = 10;

const padded = (t: TextTable, p: Paint) => table([t.head.map(p.dim), ...t.rows]);

function flipTable(c: CompareSummary, flips: Flips, who: string, p: Paint): string {
  if (flips.count === 0) return "";
  const shown = flips.rows.slice(0, FLIPPED_SHOWN);
  const more = flips.count > shown.length ? p.dim(` (first ${shown.length} shown)`) : "";
  return `${p.bold(`flagged by ${who} only`)}: ${rowCount(flips.count)}${more}\n${padded(
    {
      head: ["row", "label", c.a.profile, c.b.profile, "text"],
      rows: shown.map((r) => [
        String(r.row),
        labelMark(r.label),
        flipVerdict(r.a),
        flipVerdict(r.b),
        excerpt(r.text, 60),
      ]),
    },
    p,
  )}`;
}

/** The `--compare` section of the terminal summary: both profiles' figures, the deltas, the test and the flips. */
export function renderComparison(c: CompareSummary, p: Paint): string {
  const [a, b] = [c.a.profile, c.b.profile];
  const head = `${p.bold(`${a} vs ${b}`)} on the same ${c.rows} rows (${c.labelled} labelled); ${p.dim(`the gates judge ${a}, ${b} is for comparison (${c.b.profile_file})`)}`;
  const guardrails = guardrailChangeTable(c);
  const perGuardrail =
    guardrails.rows.length === 0
      ? ""
      : `\n${p.bold(`each guardrail on its own, ${a} → ${b}`)}\n${padded(guardrails, p)}`;
  const flips =
    c.flipped.a_only.count + c.flipped.b_only.count === 0
      ? `${p.dim("no row's verdict flipped")}\n`
      : flipTable(c, c.flipped.a_only, a, p) + flipTable(c, c.flipped.b_only, b, p);
  const overall = padded(overallTable(c, [a, b, `Δ ${b} − ${a}`]), p);
  return `\n${head}\n${overall}${mcnemarVerdict(c)}\n${perGuardrail}\n${flips}`;
}
