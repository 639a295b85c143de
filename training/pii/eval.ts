/**
 * Measures the pii guardrail against labelled data.
 *   npx tsx training/pii/eval.ts [--data PATH] [--split dev|fold:K|test|all] [--wnut PATH] [--tagger DIR] [--names tagger|rules]
 * Presidio-research JSON (default generated_large.json): dev = first 40%, test = the other 60%.
 * --wnut PATH scores PERSON/LOCATION/ORGANIZATION on a WNUT-17 CoNLL file instead.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { createPiiDetect } from "../../src/guardrails/pii/detect.js";
import { NAME_ENTITIES, PII_ENTITIES, type PiiEntity } from "../../src/guardrails/pii/entities.js";
import { loadTaggerModel } from "../../src/guardrails/pii/tagger/model.js";
import type { Span } from "../../src/guardrails/types.js";

// One file on purpose (the script is owned alone): data loading first, then scoring and timing.
interface Sample {
  readonly text: string;
  readonly spans: readonly Span[];
}

const presidio = z.array(
  z.object({
    full_text: z.string(),
    spans: z.array(
      z.object({ entity_type: z.string(), start_position: z.number(), end_position: z.number() }),
    ),
  }),
);

// Dataset names that mean one of ours: Presidio's generator calls URLs DOMAIN_NAME.
const MAP: Readonly<Record<string, string>> = { DOMAIN_NAME: "URL" };

function loadPresidio(path: string, split: string | undefined) {
  const rows = presidio.parse(JSON.parse(readFileSync(path, "utf8")));
  const cut = Math.floor(rows.length * 0.4);
  // "fold:K" is fifth K of dev, the part a tagger trained with --holdout K never saw.
  const fold = /^fold:([0-4])$/.exec(split ?? "");
  const from = Math.floor(rows.length * 0.08 * Number(fold?.[1]));
  const chosen = fold
    ? rows.slice(from, Math.floor(rows.length * 0.08 * (Number(fold[1]) + 1)))
    : split === "dev"
      ? rows.slice(0, cut)
      : split === "test"
        ? rows.slice(cut)
        : rows;
  const ignored = new Set<string>();
  const supported = new Set<string>(PII_ENTITIES);
  const samples = chosen.map((row) => ({
    text: row.full_text,
    spans: row.spans.map((s) => {
      const label = MAP[s.entity_type] ?? s.entity_type;
      if (!supported.has(label)) ignored.add(label);
      return { start: s.start_position, end: s.end_position, label };
    }),
  }));
  const mapped = Object.entries(MAP)
    .map(([from, to]) => `${from}→${to}`)
    .join(", ");
  return { samples, ignored: [...ignored].sort(), mapped };
}

const WNUT_MAP: Readonly<Record<string, string>> = {
  person: "PERSON",
  location: "LOCATION",
  corporation: "ORGANIZATION",
  group: "ORGANIZATION",
};

/** WNUT-17 CoNLL: one "token<TAB>BIO-tag" per line, blank line between tweets; tokens joined by spaces. */
function loadWnut(path: string): Sample[] {
  const samples: Sample[] = [];
  for (const block of readFileSync(path, "utf8").split(/\n\s*\n/)) {
    let text = "";
    const spans: { start: number; end: number; label: string }[] = [];
    for (const line of block.split("\n")) {
      const [token, tag = "O"] = line.split("\t");
      if (!token) continue;
      if (text) text += " ";
      const start = text.length;
      text += token;
      const type = WNUT_MAP[tag.slice(2)] ?? (tag === "O" ? undefined : `IGNORED_${tag.slice(2)}`);
      const last = spans[spans.length - 1];
      if (tag.startsWith("I-") && last && type === last.label) last.end = text.length;
      else if (type) spans.push({ start, end: text.length, label: type });
    }
    if (text) samples.push({ text, spans });
  }
  return samples;
}

/**
 * The whitespace folding of `cleanText` (runs of whitespace become one space, ends trimmed), with a
 * map back to the raw offsets the gold spans use.
 */
function cleanWithOffsets(raw: string): { clean: string; toRaw: (i: number) => number } {
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

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: {
      type: "string",
      default: resolve(root, "../shared/datasets/pii/presidio-research/generated_large.json"),
    },
    split: { type: "string", default: "dev" },
    wnut: { type: "string" },
    tagger: { type: "string" },
    names: { type: "string", default: "tagger" },
  },
});

// --tagger DIR scores other weights (a --holdout model on the tune split); default: models/pii/tagger.
// --names rules scores the lexicon rules the tagger replaced, for comparison.
const options = {
  names: values.names === "rules" ? ("rules" as const) : ("tagger" as const),
  ...(values.tagger ? { tagger: loadTaggerModel(pathToFileURL(`${resolve(values.tagger)}/`)) } : {}),
};

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  support: number;
}
const tally = (): Tally => ({ tp: 0, fp: 0, fn: 0, support: 0 });
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : "  -  ");

function row(name: string, t: Tally, predicted: number): string {
  const p = t.tp / predicted;
  const r = (t.support - t.fn) / t.support;
  const f = (2 * p * r) / (p + r);
  return `${name.padEnd(20)} ${fmt(p)}  ${fmt(r)}  ${fmt(f)}  ${String(t.support).padStart(6)}`;
}

function evaluate(samples: readonly Sample[], supported: ReadonlySet<string>): void {
  const detect = createPiiDetect(new Set([...supported] as PiiEntity[]), options);
  const spanTally = new Map<string, Tally>();
  const textTally = new Map<string, Tally>();
  const predictedCount = new Map<string, number>();
  const get = (m: Map<string, Tally>, k: string) => m.get(k) ?? m.set(k, tally()).get(k) ?? tally();
  for (const sample of samples) {
    const { clean, toRaw } = cleanWithOffsets(sample.text);
    const predicted = detect(clean).map((s) => ({
      start: toRaw(s.start),
      end: toRaw(s.end - 1) + 1,
      label: s.label,
    }));
    const gold = sample.spans.filter((g) => supported.has(g.label));
    const ignored = sample.spans.filter((g) => !supported.has(g.label));
    for (const p of predicted) {
      const hit = gold.some((g) => g.label === p.label && overlaps(g, p));
      // A prediction on text the data labels only with a type we do not score cannot be judged.
      if (!hit && ignored.some((g) => overlaps(g, p)) && !gold.some((g) => overlaps(g, p))) continue;
      predictedCount.set(p.label, (predictedCount.get(p.label) ?? 0) + 1);
      if (hit) get(spanTally, p.label).tp++;
    }
    for (const g of gold) {
      const t = get(spanTally, g.label);
      t.support++;
      if (!predicted.some((p) => p.label === g.label && overlaps(g, p))) t.fn++;
    }
    const goldTypes = new Set(gold.map((g) => g.label));
    const predTypes = new Set<string>(predicted.map((p) => p.label));
    for (const type of new Set([...goldTypes, ...predTypes])) {
      const t = get(textTally, type);
      if (goldTypes.has(type)) t.support++;
      if (goldTypes.has(type) && predTypes.has(type)) t.tp++;
      else if (goldTypes.has(type)) t.fn++;
      else t.fp++;
    }
  }
  console.log("per span (a prediction is correct when it overlaps a gold span of the same type)");
  console.log(`${"type".padEnd(20)} prec.  recall  F1     support`);
  const all = tally();
  let allPredicted = 0;
  for (const type of [...spanTally.keys()].sort()) {
    const t = spanTally.get(type) ?? tally();
    const n = predictedCount.get(type) ?? 0;
    console.log(row(type, t, n));
    all.tp += t.tp;
    all.fn += t.fn;
    all.support += t.support;
    allPredicted += n;
  }
  console.log(row("OVERALL", all, allPredicted));
  console.log("per text (each text's set of types)");
  const texts = tally();
  for (const t of textTally.values()) {
    texts.tp += t.tp;
    texts.fp += t.fp;
    texts.fn += t.fn;
    texts.support += t.support;
  }
  console.log(row("OVERALL", texts, texts.tp + texts.fp));
}

/** Milliseconds per call: mean and p99 over `texts`, after one warm-up pass. */
function time(detect: (text: string) => unknown, texts: readonly string[]): { mean: number; p99: number } {
  for (const t of texts) detect(t);
  const times: number[] = [];
  for (const t of texts) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 5; i++) detect(t);
    times.push(Number(process.hrtime.bigint() - start) / 5e6);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { mean, p99: times[Math.floor(times.length * 0.99)] ?? 0 };
}

function timing(samples: readonly Sample[]): void {
  const withNames = createPiiDetect(new Set(PII_ENTITIES), options);
  const namesOnly = createPiiDetect(new Set(NAME_ENTITIES), options);
  const withoutNames = createPiiDetect(new Set(PII_ENTITIES.filter((e) => !NAME_ENTITIES.includes(e))));
  const texts = samples.map((s) => cleanWithOffsets(s.text).clean);
  // The speed budget is stated for 300-character messages: join neighbouring texts up to that.
  const long: string[] = [];
  let acc = "";
  for (const t of texts) {
    acc = acc ? `${acc} ${t}` : t;
    if (acc.length >= 300) {
      long.push(acc.slice(0, 300));
      acc = "";
    }
  }
  const mean = (xs: readonly string[]) => xs.reduce((n, t) => n + t.length, 0) / xs.length;
  for (const [name, detect, set] of [
    ["without names", withoutNames, texts],
    ["with names", withNames, texts],
    ["names only, 300 chars", namesOnly, long],
    ["with names, 300 chars", withNames, long],
  ] as const) {
    const t = time(detect, set);
    console.log(
      `timing ${name}: mean ${t.mean.toFixed(3)} ms, p99 ${t.p99.toFixed(3)} ms per text (${set.length} texts, mean ${mean(set).toFixed(0)} chars)`,
    );
  }
}

if (values.wnut) {
  const samples = loadWnut(values.wnut);
  console.log(`WNUT-17 ${values.wnut}: ${samples.length} texts; scored: PERSON, LOCATION, ORGANIZATION;`);
  console.log(
    "mapped: person→PERSON, location→LOCATION, corporation/group→ORGANIZATION; ignored: creative-work, product",
  );
  evaluate(samples, new Set(["PERSON", "LOCATION", "ORGANIZATION"]));
} else {
  const { samples, ignored, mapped } = loadPresidio(values.data, values.split);
  console.log(`${values.data} split=${values.split}: ${samples.length} texts`);
  console.log(`mapped: ${mapped}; ignored (unsupported): ${ignored.join(", ") || "none"}`);
  evaluate(samples, new Set<string>(PII_ENTITIES));
  timing(samples);
}
