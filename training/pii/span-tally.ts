/**
 * The pii guardrail against gold spans, as `npm run eval:pii` and the leave-one-source-out
 * evaluation (loso.ts) count: a prediction is correct when it overlaps a gold span of its type,
 * and one that overlaps only spans of types not scored is not judged.
 */
import type { Span } from "../../src/guardrails/types.js";

export interface Sample {
  readonly text: string;
  readonly spans: readonly Span[];
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
  support: number;
}
export const tally = (): Tally => ({ tp: 0, fp: 0, fn: 0, support: 0 });
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

export interface Tallies {
  /** Per type over spans: tp (predictions that hit), fn and support (gold spans). */
  readonly spans: Map<string, Tally>;
  /** Per type: the predictions judged. */
  readonly predicted: Map<string, number>;
  /** Per type over texts: each text's set of types against its gold set. */
  readonly texts: Map<string, Tally>;
}

/**
 * The whitespace folding of `cleanText` (runs of whitespace become one space, ends trimmed), with a
 * map back to the raw offsets the gold spans use.
 */
export function cleanWithOffsets(raw: string): { clean: string; toRaw: (i: number) => number } {
  let clean = "";
  const map: number[] = [];
  let space = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (/\s/.test(ch)) {
      space = clean.length > 0;
      continue;
    }
    if (space) {
      clean += " ";
      map.push(i - 1);
      space = false;
    }
    clean += ch;
    map.push(i);
  }
  return { clean, toRaw: (i) => map[Math.min(i, map.length - 1)] ?? 0 };
}

/** Runs `detect` on each sample's whitespace-folded text and counts against the gold spans of `scored` types. */
export function tallySpans(
  samples: readonly Sample[],
  scored: ReadonlySet<string>,
  detect: (text: string) => readonly Span[],
): Tallies {
  const spans = new Map<string, Tally>();
  const texts = new Map<string, Tally>();
  const predictedCount = new Map<string, number>();
  const get = (m: Map<string, Tally>, k: string) => m.get(k) ?? m.set(k, tally()).get(k) ?? tally();
  for (const sample of samples) {
    const { clean, toRaw } = cleanWithOffsets(sample.text);
    const predicted = detect(clean).map((s) => ({
      start: toRaw(s.start),
      end: toRaw(s.end - 1) + 1,
      label: s.label,
    }));
    const gold = sample.spans.filter((g) => scored.has(g.label));
    const ignored = sample.spans.filter((g) => !scored.has(g.label));
    for (const p of predicted) {
      const hit = gold.some((g) => g.label === p.label && overlaps(g, p));
      // A prediction on text the data labels only with a type we do not score cannot be judged.
      if (!hit && ignored.some((g) => overlaps(g, p)) && !gold.some((g) => overlaps(g, p))) continue;
      predictedCount.set(p.label, (predictedCount.get(p.label) ?? 0) + 1);
      if (hit) get(spans, p.label).tp++;
    }
    for (const g of gold) {
      const t = get(spans, g.label);
      t.support++;
      if (!predicted.some((p) => p.label === g.label && overlaps(g, p))) t.fn++;
    }
    const goldTypes = new Set(gold.map((g) => g.label));
    const predTypes = new Set<string>(predicted.map((p) => p.label));
    for (const type of new Set([...goldTypes, ...predTypes])) {
      const t = get(texts, type);
      if (goldTypes.has(type)) t.support++;
      if (goldTypes.has(type) && predTypes.has(type)) t.tp++;
      else if (goldTypes.has(type)) t.fn++;
      else t.fp++;
    }
  }
  return { spans, predicted: predictedCount, texts };
}
