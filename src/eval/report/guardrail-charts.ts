import { describeThreshold } from "../effective-threshold.js";
import type { GuardrailSummary } from "../summary.js";
import { axes, countTicks, frame, type Marker, markers, note, polyline, svg } from "./chart.js";
import { esc, num, px } from "./html.js";
import { type OperatingPoint, operatingPoint } from "./operating-point.js";

/** ROC, precision-recall and score histogram of one score-bearing guardrail, as inline SVG. */

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const opLabel = (op: OperatingPoint, name: string) => `${name} ${op.exact ? "" : "≈"}${op.threshold}`;

const rocMarker = (p: OperatingPoint | null, name: string, cls: string): Marker[] =>
  p === null ? [] : [{ x: p.fpr, y: p.tpr, label: opLabel(p, name), cls }];
const prMarker = (p: OperatingPoint | null, name: string, cls: string): Marker[] =>
  p?.precision == null ? [] : [{ x: p.tpr, y: p.precision, label: opLabel(p, name), cls }];

function points(g: GuardrailSummary): { op: OperatingPoint | null; rec: OperatingPoint | null } {
  const r = g.recommendation;
  const rec =
    r?.threshold != null && r.at?.fpr != null && r.at.recall != null
      ? { threshold: r.threshold, fpr: r.at.fpr, tpr: r.at.recall, precision: r.at.precision, exact: true }
      : null;
  return { op: operatingPoint(g, g.threshold), rec };
}

export function rocChart(id: string, g: GuardrailSummary): string {
  const f = frame();
  const { op, rec } = points(g);
  const body = [
    axes(f, "false-positive rate", "true-positive rate"),
    polyline(
      f,
      [
        [0, 0],
        [1, 1],
      ],
      "chance",
    ),
    polyline(f, g.roc ?? [], "curve"),
    markers(f, [...rocMarker(op, "threshold", "op"), ...rocMarker(rec, "recommended", "rec")]),
    note(f, [{ text: `AUC ${num(g.auc)}` }], "bottom"),
  ];
  return svg(f, `${id}: ROC curve`, body.join(""));
}

export function prChart(id: string, g: GuardrailSummary): string {
  const f = frame();
  const { op, rec } = points(g);
  const h = g.histogram;
  const base = h ? sum(h.positive) / Math.max(1, sum(h.positive) + sum(h.negative)) : null;
  const body = [
    axes(f, "recall", "precision"),
    base === null
      ? ""
      : polyline(
          f,
          [
            [0, base],
            [1, base],
          ],
          "chance",
        ),
    polyline(f, g.pr ?? [], "curve"),
    markers(f, [...prMarker(op, "threshold", "op"), ...prMarker(rec, "recommended", "rec")]),
    note(f, [{ text: `PR-AUC ${num(g.pr_auc)}` }], "bottom"),
  ];
  return svg(f, `${id}: precision-recall curve`, body.join(""));
}

/** Bars per bin side by side (label −, label +, unlabelled), the threshold as a dashed rule. */
export function histogramChart(id: string, g: GuardrailSummary): string {
  const h = g.histogram;
  if (!h) return "";
  const series = [
    { name: "label −", cls: "neg", counts: h.negative },
    { name: "label +", cls: "pos", counts: h.positive },
    { name: "unlabelled", cls: "unl", counts: h.unlabelled },
  ].filter((s) => sum(s.counts) > 0);
  const max = Math.max(1, ...series.flatMap((s) => s.counts));
  const ticks = countTicks(max);
  const f = frame(Math.max(max, ticks[ticks.length - 1] ?? max));
  const bars: string[] = [];
  const bins = h.edges.length - 1;
  const slot = f.plotWidth / bins;
  const barWidth = (slot - 2) / Math.max(1, series.length);
  series.forEach((s, k) => {
    s.counts.forEach((c, i) => {
      if (c === 0) return;
      const x = f.left + i * slot + 1 + k * barWidth;
      const y = f.y(c);
      bars.push(
        `<rect class="bar ${s.cls}" x="${px(x)}" y="${px(y)}" width="${px(barWidth)}" height="${px(f.top + f.plotHeight - y)}"><title>${h.edges[i]}–${h.edges[i + 1]}: ${c} ${s.name}</title></rect>`,
      );
    });
  });
  const rule = (t: number | null | undefined, cls: string) =>
    t == null
      ? ""
      : `<line class="rule ${cls}" x1="${px(f.x(t))}" y1="${f.top}" x2="${px(f.x(t))}" y2="${f.top + f.plotHeight}"/>`;
  const recommended = g.recommendation?.threshold;
  const legend = [
    ...series.map((s) => `<span class="key ${s.cls}">${s.name} (${sum(s.counts)})</span>`),
    g.threshold === null ? "" : `<span class="key op">threshold ${esc(describeThreshold(g))}</span>`,
    recommended == null ? "" : `<span class="key rec">recommended ${recommended}</span>`,
  ];
  const body = [
    axes(f, "score", "rows", ticks),
    bars.join(""),
    rule(recommended, "rec"),
    rule(g.threshold, "op"),
  ];
  return `${svg(f, `${id}: score histogram by label`, body.join(""))}<p class="legend">${legend.join(" ")}</p>`;
}
