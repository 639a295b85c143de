import { mcnemarVerdict, points, pValue, signed, signedF1 } from "../../eval/compare-format.js";
import type {
  CompareSummary,
  FlippedRow,
  FlipSide,
  Flips,
  MetricDelta,
  SideFigures,
} from "../../eval/compare-summary.js";
import { describeScore } from "../../eval/examples.js";
import { excerpt } from "../../eval/excerpt.js";
import { num, pct } from "../../eval/figures.js";
import { type Paint, table } from "../output.js";

/** Flipped rows the terminal shows each way; --json and the report keep more, every one is counted. */
export const FLIPPED_SHOWN = 10;

const HEAD = ["flagged", "tp", "fp", "tn", "fn", "precision", "recall", "fpr", "f1"];

function side(name: string, f: SideFigures | null): string[] {
  if (f === null) return [name, "not run"];
  const m = f.metrics;
  if (m === null) return [name, String(f.flagged)];
  return [
    name,
    ...[f.flagged, m.tp, m.fp, m.tn, m.fn].map(String),
    pct(m.precision),
    pct(m.recall),
    pct(m.fpr),
    num(m.f1),
  ];
}

const delta = (name: string, d: MetricDelta, labelled: boolean): string[] =>
  labelled
    ? [
        name,
        ...[d.flagged, d.tp, d.fp, d.tn, d.fn].map(signed),
        points(d.precision),
        points(d.recall),
        points(d.fpr),
        signedF1(d.f1),
      ]
    : [name, signed(d.flagged)];

/** `a → b` for one figure of a guardrail; `–` on the side that does not run it. */
const change = (a: SideFigures | null, b: SideFigures | null, f: (x: SideFigures) => string) =>
  `${a ? f(a) : "–"} → ${b ? f(b) : "–"}`;

function guardrailTable(c: CompareSummary, p: Paint): string {
  const entries = Object.entries(c.guardrails);
  if (entries.length === 0) return "";
  const labelled = c.labelled > 0;
  const ratio = (k: "precision" | "recall" | "fpr") => (x: SideFigures) => pct(x.metrics?.[k]);
  const rows = entries.map(([id, g]) => {
    if (!g) return [id];
    const flagged = change(g.a, g.b, (x) => String(x.flagged));
    const only = g.a && g.b ? "" : p.dim(` (only ${g.a ? c.a.profile : c.b.profile})`);
    if (!labelled) return [id, flagged + only];
    const m = g.mcnemar;
    return [
      id,
      flagged,
      change(g.a, g.b, ratio("precision")),
      change(g.a, g.b, ratio("recall")),
      change(g.a, g.b, ratio("fpr")),
      change(g.a, g.b, (x) => num(x.metrics?.f1)),
      m ? `b ${m.b}, c ${m.c}, p ${pValue(m.p_value)}` : only.trim(),
    ];
  });
  const head = [
    "guardrail (on its own)",
    "flagged",
    ...(labelled ? ["precision", "recall", "fpr", "f1", "McNemar"] : []),
  ];
  return `\n${p.bold(`each guardrail on its own, ${c.a.profile} → ${c.b.profile}`)}\n${table([head.map(p.dim), ...rows])}`;
}

/** What a profile made of a flipped row: the guardrails that flagged it (or `allowed`) and its top score. */
const verdict = (s: FlipSide) =>
  [s.guardrails.length > 0 ? s.guardrails.join("+") : "allowed", describeScore(s)].filter(Boolean).join("; ");

function flipTable(c: CompareSummary, flips: Flips, who: string, p: Paint): string {
  if (flips.count === 0) return "";
  const shown = flips.rows.slice(0, FLIPPED_SHOWN);
  const label = (r: FlippedRow) => (r.label === null ? "–" : r.label ? "+" : "−");
  return `${p.bold(`flagged by ${who} only`)}: ${flips.count} rows${flips.count > shown.length ? p.dim(` (first ${shown.length} shown)`) : ""}\n${table(
    [
      ["row", "label", c.a.profile, c.b.profile, "text"].map(p.dim),
      ...shown.map((r) => [String(r.row), label(r), verdict(r.a), verdict(r.b), excerpt(r.text, 60)]),
    ],
  )}`;
}

/** The `--compare` section of the terminal summary: both profiles' figures, the deltas, the test and the flips. */
export function renderComparison(c: CompareSummary, p: Paint): string {
  const [a, b] = [c.a.profile, c.b.profile];
  const labelled = c.labelled > 0;
  const head = `${p.bold(`${a} vs ${b}`)} on the same ${c.rows} rows (${c.labelled} labelled); ${p.dim(`the gates judge ${a}, ${b} is for comparison (${c.b.profile_file})`)}`;
  const overall = [
    ["", ...(labelled ? HEAD : ["flagged"])].map(p.dim),
    side(a, c.overall.a),
    side(b, c.overall.b),
    delta(`Δ ${b} − ${a}`, c.overall.delta, labelled),
  ];
  const guardrails = guardrailTable(c, p);
  const flips =
    c.flipped.a_only.count + c.flipped.b_only.count === 0
      ? `${p.dim("no row's verdict flipped")}\n`
      : flipTable(c, c.flipped.a_only, a, p) + flipTable(c, c.flipped.b_only, b, p);
  return `\n${head}\n${table(overall)}${mcnemarVerdict(c)}\n${guardrails}\n${flips}`;
}
