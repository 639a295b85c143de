import type { LabelledText } from "./data.js";

type Span = { start: number; end: number };
type Tagger = (text: string) => readonly (Span & { label: string })[];

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/**
 * Prints the tagger's precision and recall per entity type: a prediction is correct when it
 * overlaps a gold span of its type, a gold span found when a prediction of its type overlaps it.
 */
export function spanScores(name: string, texts: readonly LabelledText[], tag: Tagger): void {
  const stats = new Map<string, { tp: number; predicted: number; found: number; support: number }>();
  const get = (k: string) => {
    const s = stats.get(k) ?? { tp: 0, predicted: 0, found: 0, support: 0 };
    stats.set(k, s);
    return s;
  };
  for (const t of texts) {
    const predicted = tag(t.text);
    for (const p of predicted) {
      const s = get(p.label);
      s.predicted++;
      if (t.spans.some((g) => g.label === p.label && overlap(g, p))) s.tp++;
    }
    for (const g of t.spans) {
      const s = get(g.label);
      s.support++;
      if (predicted.some((p) => p.label === g.label && overlap(g, p))) s.found++;
    }
  }
  console.log(`${name}: tagger alone, per span (prec. / recall / support)`);
  for (const [k, s] of [...stats].sort())
    console.log(
      `  ${k.padEnd(14)} ${(s.tp / s.predicted).toFixed(3)}  ${(s.found / s.support).toFixed(3)}  ${s.support}`,
    );
}
