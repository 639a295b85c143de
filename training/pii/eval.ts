/**
 * Measures the pii guardrail against labelled data.
 *   npm run eval:pii -- [flags]   (--help lists them)
 * Presidio-research JSON (default generated_large.json): dev = first 40%, test = the other 60%.
 * --wnut PATH scores PERSON/LOCATION/ORGANIZATION on a WNUT-17 CoNLL file instead.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { createPiiDetect } from "../../src/guardrails/pii/detect.js";
import { NAME_ENTITIES, PII_ENTITIES, type PiiEntity } from "../../src/guardrails/pii/entities.js";
import { loadTaggerModel } from "../../src/guardrails/pii/tagger/model.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain } from "../lib/main.js";
import { SHARED_DATASETS } from "../lib/paths.js";
import { bioSpans, readConll } from "./data.js";
import { cleanWithOffsets, type Sample, type Tally, tally, tallySpans } from "./span-tally.js";

const presidio = z.array(
  z.object({
    full_text: z.string(),
    spans: z.array(
      z.object({ entity_type: z.string(), start_position: z.number(), end_position: z.number() }),
    ),
  }),
);

// Dataset names that mean one of ours: Presidio's generator calls URLs DOMAIN_NAME.
export const PRESIDIO_MAP: Readonly<Record<string, string>> = { DOMAIN_NAME: "URL" };

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
      const label = PRESIDIO_MAP[s.entity_type] ?? s.entity_type;
      if (!supported.has(label)) ignored.add(label);
      return { start: s.start_position, end: s.end_position, label };
    }),
  }));
  const mapped = Object.entries(PRESIDIO_MAP)
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

/** WNUT-17 CoNLL; types the guardrail does not detect become IGNORED_<type> spans. */
export function loadWnutScored(path: string): Sample[] {
  const labelOf = (type: string, tag: string) =>
    WNUT_MAP[type] ?? (tag === "O" ? undefined : `IGNORED_${type}`);
  return readConll(path).map(({ text, tokens }) => ({ text, spans: bioSpans(tokens, labelOf, false) }));
}

const USAGE = "npm run eval:pii -- [flags]";
const FLAGS = {
  data: flag.path(
    resolve(SHARED_DATASETS, "pii/presidio-research/generated_large.json"),
    "Presidio-research JSON to score",
  ),
  split: flag.string("dev", "dev (first 40%), test (the rest), fold:K (fifth K of dev) or all"),
  wnut: flag.optionalPath("score PERSON/LOCATION/ORGANIZATION on this WNUT-17 CoNLL file instead"),
  tagger: flag.optionalPath("tagger weights to score (a --holdout model); default models/pii/tagger"),
  names: flag.choice(
    ["tagger", "rules"] as const,
    "tagger",
    "names by the tagger, or by the lexicon rules it replaced",
  ),
};

type DetectOptions = { names: "tagger" | "rules"; tagger?: ReturnType<typeof loadTaggerModel> };

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : "  -  ");

function row(name: string, t: Tally, predicted: number): string {
  const p = t.tp / predicted;
  const r = (t.support - t.fn) / t.support;
  const f = (2 * p * r) / (p + r);
  return `${name.padEnd(20)} ${fmt(p)}  ${fmt(r)}  ${fmt(f)}  ${String(t.support).padStart(6)}`;
}

function evaluate(samples: readonly Sample[], supported: ReadonlySet<string>, options: DetectOptions): void {
  const detect = createPiiDetect(new Set([...supported] as PiiEntity[]), options);
  const {
    spans: spanTally,
    predicted: predictedCount,
    texts: textTally,
  } = tallySpans(samples, supported, detect);
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

function timing(samples: readonly Sample[], options: DetectOptions): void {
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

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const options: DetectOptions = {
    names: flags.names,
    ...(flags.tagger ? { tagger: loadTaggerModel(pathToFileURL(`${resolve(flags.tagger)}/`)) } : {}),
  };
  if (flags.wnut) {
    const samples = loadWnutScored(flags.wnut);
    console.log(`WNUT-17 ${flags.wnut}: ${samples.length} texts; scored: PERSON, LOCATION, ORGANIZATION;`);
    console.log(
      "mapped: person→PERSON, location→LOCATION, corporation/group→ORGANIZATION; ignored: creative-work, product",
    );
    evaluate(samples, new Set(["PERSON", "LOCATION", "ORGANIZATION"]), options);
  } else {
    const { samples, ignored, mapped } = loadPresidio(flags.data, flags.split);
    console.log(`${flags.data} split=${flags.split}: ${samples.length} texts`);
    console.log(`mapped: ${mapped}; ignored (unsupported): ${ignored.join(", ") || "none"}`);
    evaluate(samples, new Set<string>(PII_ENTITIES), options);
    timing(samples, options);
  }
}

runMain(import.meta.url, main);
