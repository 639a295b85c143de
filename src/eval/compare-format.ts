import type { CompareSummary, FlipSide, Flips, MetricDelta, SideFigures } from "./compare-summary.js";
import { describeScore } from "./examples.js";
import { num, pct } from "./figures.js";

/** How the terminal and the HTML report write a comparison's figures: the same words in both. */

const MINUS = "\u2212";

/** A count change: `+3`, `−2`, `0`. */
export const signed = (v: number): string => (v > 0 ? `+${v}` : v < 0 ? `${MINUS}${-v}` : "0");

/** A ratio change in percentage points: `+2.5 pp`, `−0.8 pp`; `–` where either side is undefined. */
export const points = (v: number | null): string => {
  if (v === null) return "–";
  const s = (Math.abs(v) * 100).toFixed(1);
  return s === "0.0" ? "0.0 pp" : `${v > 0 ? "+" : MINUS}${s} pp`;
};

/** An F1 change: `+0.031`. */
export const signedF1 = (v: number | null): string =>
  v === null ? "–" : v === 0 ? "0.000" : `${v > 0 ? "+" : MINUS}${Math.abs(v).toFixed(3)}`;

/** A p-value as people read them: four decimals, or `< 0.0001`. */
export const pValue = (p: number): string => (p < 1e-4 ? "< 0.0001" : p.toFixed(4));

/** `1 row`, `5 rows`. */
export const rowCount = (n: number): string => `${n} row${n === 1 ? "" : "s"}`;

/** The level the verdict sentence judges at; the p-value itself is printed beside it. */
export const ALPHA = 0.05;

/**
 * One sentence on what McNemar's test says about the two profiles' overall verdicts, naming which
 * is right more often only when the test says the difference is unlikely to be chance.
 */
export function mcnemarVerdict(c: CompareSummary): string {
  const m = c.mcnemar;
  if (m === null) return c.mcnemar_note ?? "no McNemar test";
  const [a, b] = [c.a.profile, c.b.profile];
  const counts = `${rowCount(m.b)} only ${a} judged right, ${m.c} only ${b}`;
  if (m.b + m.c === 0) return `${counts}: they agree on every labelled row`;
  if (m.p_value >= ALPHA)
    return `${counts}: no significant difference (exact McNemar p = ${pValue(m.p_value)}, ≥ ${ALPHA})`;
  const better = m.c > m.b ? b : a;
  return `${counts}: ${better} is right more often (exact McNemar p = ${pValue(m.p_value)} < ${ALPHA})`;
}

/** `a → b` for one figure of a guardrail; `–` on the side that does not run it. */
const change = (a: SideFigures | null, b: SideFigures | null, f: (x: SideFigures) => string): string =>
  `${a ? f(a) : "–"} → ${b ? f(b) : "–"}`;

/** What a profile made of a flipped row: the guardrails that flagged it (or `allowed`) and its top score. */
const flipVerdict = (s: FlipSide): string =>
  [s.guardrails.length > 0 ? s.guardrails.join("+") : "allowed", describeScore(s)].filter(Boolean).join("; ");

/** A label as the flip tables show it. */
const labelMark = (label: boolean | null): string => (label === null ? "–" : label ? "+" : MINUS);

/** A table as plain text cells; the terminal pads it, the report escapes it. */
export interface TextTable {
  readonly head: string[];
  readonly rows: string[][];
}

function sideCells(f: SideFigures): string[] {
  const m = f.metrics;
  if (m === null) return [String(f.flagged)];
  return [
    ...[f.flagged, m.tp, m.fp, m.tn, m.fn].map(String),
    pct(m.precision),
    pct(m.recall),
    pct(m.fpr),
    num(m.f1),
  ];
}

function deltaCells(d: MetricDelta, labelled: boolean): string[] {
  if (!labelled) return [signed(d.flagged)];
  const counts = [d.flagged, d.tp, d.fp, d.tn, d.fn].map(signed);
  return [...counts, points(d.precision), points(d.recall), points(d.fpr), signedF1(d.f1)];
}

/** Both profiles' overall figures and B − A, rows named by `names` (a, b, delta). */
function overallTable(c: CompareSummary, names: readonly [string, string, string]): TextTable {
  const labelled = c.labelled > 0;
  return {
    head: ["", "flagged", ...(labelled ? ["tp", "fp", "tn", "fn", "precision", "recall", "fpr", "f1"] : [])],
    rows: [
      [names[0], ...sideCells(c.overall.a)],
      [names[1], ...sideCells(c.overall.b)],
      [names[2], ...deltaCells(c.overall.delta, labelled)],
    ],
  };
}

/** Each guardrail's own figures as `A → B`, with McNemar's test where both profiles run it. */
function guardrailChangeTable(c: CompareSummary): TextTable {
  const labelled = c.labelled > 0;
  const ratio = (k: "precision" | "recall" | "fpr") => (x: SideFigures) => pct(x.metrics?.[k]);
  const rows = Object.entries(c.guardrails).map(([id, g]) => {
    if (!g) return [id];
    const only = g.a && g.b ? "" : `only ${g.a ? c.a.profile : c.b.profile}`;
    const flagged = change(g.a, g.b, (x) => String(x.flagged));
    if (!labelled) return [id, flagged, only];
    const m = g.mcnemar;
    return [
      id,
      flagged,
      change(g.a, g.b, ratio("precision")),
      change(g.a, g.b, ratio("recall")),
      change(g.a, g.b, ratio("fpr")),
      change(g.a, g.b, (x) => num(x.metrics?.f1)),
      m ? `b ${m.b}, c ${m.c}, p ${pValue(m.p_value)}` : only,
    ];
  });
  return {
    head: ["guardrail", "flagged", ...(labelled ? ["precision", "recall", "fpr", "f1"] : []), "McNemar"],
    rows,
  };
}

/** A profile's flips as a table: row, id, label, each profile's verdict, and the whole kept text. */
function flipTable(c: CompareSummary, flips: Flips): TextTable {
  return {
    head: ["row", "id", "label", c.a.profile, c.b.profile, "text"],
    rows: flips.rows.map((r) => [
      String(r.row),
      r.id ?? "",
      labelMark(r.label),
      flipVerdict(r.a),
      flipVerdict(r.b),
      r.text,
    ]),
  };
}

/** Everything the terminal and the report show of a comparison, as text: each lays it out its way. */
export function comparisonTables(c: CompareSummary, names: readonly [string, string, string]) {
  return {
    overall: overallTable(c, names),
    verdict: mcnemarVerdict(c),
    guardrails: guardrailChangeTable(c),
    flips: { a_only: flipTable(c, c.flipped.a_only), b_only: flipTable(c, c.flipped.b_only) },
  };
}
