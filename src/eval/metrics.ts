import type { Confusion, Metrics } from "./summary.js";

export const emptyConfusion = (): Confusion => ({ tp: 0, fp: 0, tn: 0, fn: 0 });

/** Adds one labelled verdict to the counts. */
export function count(confusion: Confusion, label: boolean, flagged: boolean): void {
  if (label) flagged ? confusion.tp++ : confusion.fn++;
  else flagged ? confusion.fp++ : confusion.tn++;
}

/** A ratio, or null when the denominator is zero (undefined, not zero). */
export const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

export function f1Of(precision: number | null, recall: number | null): number | null {
  if (precision === null || recall === null) return null;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

export function metricsOf(c: Confusion): Metrics {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  return {
    tp: c.tp,
    fp: c.fp,
    tn: c.tn,
    fn: c.fn,
    precision,
    recall,
    f1: f1Of(precision, recall),
    accuracy: ratio(c.tp + c.tn, c.tp + c.fp + c.tn + c.fn),
    fpr: ratio(c.fp, c.fp + c.tn),
    fnr: ratio(c.fn, c.fn + c.tp),
  };
}

/** Rounds a figure for display and JSON (6 decimals), keeping null. */
export const round = (value: number | null, digits = 6): number | null =>
  value === null || !Number.isFinite(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/** Every ratio of `m` rounded as `round` does; the counts as they are. */
export function roundMetrics(m: Metrics): Metrics {
  return {
    ...m,
    precision: round(m.precision),
    recall: round(m.recall),
    f1: round(m.f1),
    accuracy: round(m.accuracy),
    fpr: round(m.fpr),
    fnr: round(m.fnr),
  };
}
