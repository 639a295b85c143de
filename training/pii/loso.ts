/**
 * Leave-one-source-out for the pii guardrail (issue 12): each public source the tagger trains on
 * (Presidio research, nannigalaxy, WNUT-17) held out in turn. The tagger is fitted on the other
 * sources in memory exactly as `npm run train:pii` fits the shipped one, then every labelled text
 * of the held-out source goes through the whole guardrail (pattern rules, address rules and that
 * tagger) and is scored per span as eval:pii scores, on the types the source labels and the
 * guardrail reports. Also the share of ordinary benign prompts with any finding, with the tagger
 * fitted on every source: most such prompts hold no personal data, so it bounds the false-positive
 * rate from above (a public figure's name is a PERSON finding, not a mistake of the rules).
 *
 *   npx tsx training/pii/loso.ts [--data DIR] [--benign DIR]
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createPiiDetect } from "../../src/guardrails/pii/detect.js";
import { NAME_ENTITIES, PII_ENTITIES } from "../../src/guardrails/pii/entities.js";
import type { TaggerModel } from "../../src/guardrails/pii/tagger/model.js";
import type { WordStatesOf } from "../../src/guardrails/pii/tagger/tagger.js";
import { flag, parseFlags } from "../lib/flags.js";
import { readJson, readJsonl, readLines } from "../lib/jsonl.js";
import { runMain, timedLog } from "../lib/main.js";
import { SHARED_DATASETS } from "../lib/paths.js";
import { encodeWordStates } from "./encode-states.js";
import { FIT_DEFAULTS, fitTagger, trainingSets } from "./fit.js";
import { heldOutSets, losoSplit } from "./loso-sets.js";
import { cleanWithOffsets, type Tally, tally, tallySpans } from "./span-tally.js";

const USAGE = "npx tsx training/pii/loso.ts [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "pii"), "the pii data sets"),
  benign: flag.path(resolve(SHARED_DATASETS, "injection/benign"), "benign prompts (no labelled PII)"),
  states: flag.choice(
    ["none", "fp32", "int8"] as const,
    "none",
    "also fit and run the tagger on the encoder's word states, from this encoder (issue 22)",
  ),
  seed: flag.integer(FIT_DEFAULTS.seed, "seed of the perceptron's per-epoch shuffle"),
  denseScale: flag.number(1, "each word state's weight against one sparse feature", { min: 0 }),
};

interface Dense {
  readonly seed: number;
  readonly statesOf?: WordStatesOf;
  readonly denseScale: number;
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function figures(t: Tally, predicted: number): { p: number; r: number; f1: number } {
  const p = t.tp / predicted;
  const r = (t.support - t.fn) / t.support;
  return { p, r, f1: (2 * p * r) / (p + r) };
}

/** The benign prompt sets: ordinary requests and coding requests, one text each. */
function benignSets(dir: string): { name: string; texts: string[] }[] {
  const instruction = (rows: { instruction: string; input?: string }[]) =>
    rows.map((r) => (r.input ? `${r.instruction}\n\n${r.input}` : r.instruction));
  return [
    { name: "alpaca_eval", texts: instruction(readJson(join(dir, "alpaca_eval_outputs.json")) as never) },
    {
      name: "self_instruct",
      texts: readdirSync(dir)
        .filter((f) => f.startsWith("self_instruct_"))
        .flatMap((f) => instruction(readJsonl(join(dir, f)) as never)),
    },
    {
      name: "mt_bench",
      texts: readJsonl<{ turns: string[] }>(join(dir, "mt_bench_questions.jsonl")).flatMap((r) => r.turns),
    },
    { name: "fuzzyai benign", texts: readLines(join(dir, "fuzzyai_benign_prompts.txt")) },
    {
      name: "gpteacher codegen",
      texts: instruction(readJson(join(dir, "gpteacher_codegen_instruct.json")) as never),
    },
  ];
}

function heldOut(data: string, dense: Dense, log: (m: string) => void): void {
  const all = trainingSets(data);
  const rows: string[] = [];
  const types: string[] = [];
  const f1s: number[] = [];
  for (const held of heldOutSets(data)) {
    const fitted = fitTagger(losoSplit(all, held.source), { ...FIT_DEFAULTS, ...dense }, () => {});
    const scored = new Set<string>(held.scored);
    const detect = createPiiDetect(new Set(held.scored), {
      tagger: fitted.model,
      ...(dense.statesOf ? { wordStates: dense.statesOf } : {}),
    });
    const t = tallySpans(held.samples, scored, detect);
    const total = tally();
    let predicted = 0;
    for (const type of held.scored) {
      const s = t.spans.get(type) ?? tally();
      const n = t.predicted.get(type) ?? 0;
      const f = figures(s, n);
      types.push(`| ${held.source} | ${type} | ${s.support} | ${fmt(f.p)} | ${fmt(f.r)} | ${fmt(f.f1)} |`);
      total.tp += s.tp;
      total.fn += s.fn;
      total.support += s.support;
      predicted += n;
    }
    const f = figures(total, predicted);
    f1s.push(f.f1);
    rows.push(
      `| ${held.source} | ${held.files} | ${held.samples.length} | ${held.scored.join(", ")} | ${total.support} | ${fmt(f.p)} | ${fmt(f.r)} | ${fmt(f.f1)} |`,
    );
    log(`held out ${held.source}`);
  }
  console.log(
    "\n| held-out source | scored files | texts | types scored | spans | precision | recall | F1 |",
  );
  console.log("|---|---|---:|---|---:|---:|---:|---:|");
  for (const r of rows) console.log(r);
  console.log(
    `\nmacro F1 over the ${f1s.length} held-out sources ${fmt(f1s.reduce((a, b) => a + b, 0) / f1s.length)}`,
  );
  console.log(
    "\n| held-out source | type | spans | precision | recall | F1 |\n|---|---|---:|---:|---:|---:|",
  );
  for (const r of types) console.log(r);
}

function benign(data: string, dir: string, dense: Dense, log: (m: string) => void): void {
  const model: TaggerModel = fitTagger(trainingSets(data), { ...FIT_DEFAULTS, ...dense }, () => {}).model;
  const detect = createPiiDetect(new Set(PII_ENTITIES), {
    tagger: model,
    ...(dense.statesOf ? { wordStates: dense.statesOf } : {}),
  });
  const names = new Set<string>(NAME_ENTITIES);
  console.log(
    "\n| benign set | texts | any finding | a pattern type (not a name or address) | pattern types found |\n|---|---:|---:|---:|---|",
  );
  let n = 0;
  let any = 0;
  let patterns = 0;
  for (const set of benignSets(dir)) {
    let withAny = 0;
    let withPattern = 0;
    const found = new Map<string, number>();
    for (const text of set.texts) {
      const labels = new Set(detect(cleanWithOffsets(text).clean).map((s) => s.label));
      if (labels.size > 0) withAny++;
      const own = [...labels].filter((l) => !names.has(l));
      if (own.length > 0) withPattern++;
      for (const l of own) found.set(l, (found.get(l) ?? 0) + 1);
    }
    const list = [...found].sort((a, b) => b[1] - a[1]).map(([l, k]) => `${l} ${k}`);
    console.log(
      `| ${set.name} | ${set.texts.length} | ${pct(withAny / set.texts.length)} | ${pct(withPattern / set.texts.length)} | ${list.join(", ") || "–"} |`,
    );
    n += set.texts.length;
    any += withAny;
    patterns += withPattern;
  }
  console.log(`| all | ${n} | ${pct(any / n)} | ${pct(patterns / n)} | |`);
  log("benign prompts");
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  // Every text the tagger will see: the training texts as written, the scored ones whitespace-folded.
  const texts = () => [
    ...trainingSets(flags.data).flatMap((s) => s.texts.map((t) => t.text)),
    ...heldOutSets(flags.data).flatMap((h) => h.samples.map((x) => cleanWithOffsets(x.text).clean)),
    ...benignSets(flags.benign).flatMap((b) => b.texts.map((t) => cleanWithOffsets(t).clean)),
  ];
  const statesOf = flags.states === "none" ? undefined : await encodeWordStates(texts(), flags.states, log);
  const dense: Dense = { seed: flags.seed, denseScale: flags.denseScale, ...(statesOf ? { statesOf } : {}) };
  heldOut(flags.data, dense, log);
  benign(flags.data, flags.benign, dense, log);
}

runMain(import.meta.url, main);
