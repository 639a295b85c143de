/**
 * Leave-one-source-out for the leak model (issue 12): each public source of system prompts, and
 * each kind of extraction attempt, held out in turn (loso-folds.ts). Every learned part (the
 * n-gram classifiers, the combiners, the thresholds) is fitted on the other sources by fit.ts,
 * exactly as train.ts fits the shipped model, then scored on the held-out source's examples,
 * generated with the held-out third of every template list. The macro average over the four
 * system-prompt sources is the criterion the model is selected by; the attack folds show what the
 * originating prompt ("+ prompt" settings) is worth on attacks of an unseen kind.
 *
 *   npx tsx training/system-prompt-protection/loso.ts [--no-encoder] [--only SOURCE] [--score-int8]
 *
 * `--score-int8` (issue 25) adds the encoder settings scored on the int8 encoder's vectors by the
 * same fold model, fitted on fp32 vectors as the bundled one is ("… (int8 encoder)" rows).
 */
import { resolve } from "node:path";
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { atThreshold, rocAucOf } from "../lib/metrics.js";
import { SEED, SHARED_DATASETS } from "../lib/paths.js";
import { scoreParts, thresholdFor } from "./combiners.js";
import { precomputedEncoder } from "./embed-cache.js";
import { fitLeakModel, SETTING_NAMES, sentencesToEmbed } from "./fit.js";
import type { LeakExample } from "./generate.js";
import { loadAttacks, loadSystemPrompts } from "./load-prompts.js";
import { ATTACK_SOURCES, type HeldOut, losoFold, PROMPT_SOURCES, RESPONSE_FOLDS } from "./loso-folds.js";
import { loadRealResponses, RESPONSE_SOURCES, WRITTEN_SOURCE } from "./real-responses.js";
import { type Setting, scoreExamples } from "./score-examples.js";
import { readWrittenRows, writtenExamples } from "./written-rows.js";

const USAGE = "npx tsx training/system-prompt-protection/loso.ts [flags]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "leakage"), "the leakage data sets"),
  seed: flag.integer(SEED, "seed of the generated examples and the shuffles"),
  noEncoder: flag.boolean("train and measure without the sentence encoder"),
  only: flag.string("", "hold out this source alone"),
  noRealResponses: flag.boolean("train on generated examples alone (real responses are then only tested)"),
  written: flag.boolean(
    "also train on the project-written instruction answers (without it they are only tested, in their own fold)",
  ),
  trainWritten: flag.string(
    "",
    "comma-separated project-written leaks and talk answers to train on in every fold, as train.ts --train-written (their train split fits the classifiers, their validation split the combiners and thresholds)",
  ),
  threads: flag.integer(2, "encoder threads", { min: 1 }),
  scoreInt8: flag.boolean(
    "also score the encoder settings on the int8 encoder's vectors (the fp32-fitted fold model)",
  ),
};

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Figures {
  held: HeldOut;
  n: number;
  leaks: number;
  threshold: number;
  auc: number;
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
  /** Share flagged per no-leak kind. */
  flaggedByKind: Record<string, number>;
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  if (flags.scoreInt8 && flags.noEncoder)
    throw new UsageError("--score-int8 scores the encoder settings: drop --no-encoder", USAGE);
  const log = timedLog();
  const held: HeldOut[] = [...PROMPT_SOURCES, ...ATTACK_SOURCES, ...RESPONSE_FOLDS].filter(
    (s) => !flags.only || s === flags.only,
  );
  if (!held.length) throw new UsageError(`--only: no source "${flags.only}"`, USAGE);
  const prompts = loadSystemPrompts(flags.data);
  const attacks = loadAttacks(flags.data);
  const systemPrompts = new Map(prompts.map((p) => [p.id, p.text]));
  const responses = loadRealResponses(resolve(flags.data, ".."));
  const folds = held.map((h) =>
    losoFold(
      h,
      prompts,
      attacks,
      flags.seed,
      responses.filter((r) => {
        const held = `responses/${r.source}` === h;
        if (flags.noRealResponses) return held;
        return flags.written || r.source !== WRITTEN_SOURCE || held;
      }),
    ),
  );
  // Read once; each fold pairs the talk answers with its own system prompts, never a held-out one.
  const written = readWrittenRows(flags.trainWritten.split(",").filter(Boolean));
  if (written.length) {
    const promptIds = new Set(prompts.map((p) => p.id));
    const ids = (list: readonly LeakExample[]) =>
      [...new Set(list.map((e) => e.group))].filter((id) => promptIds.has(id));
    for (const fold of folds) {
      const [train, val] = [ids(fold.train), ids(fold.val)];
      const fitted = writtenExamples(written, { train, val, test: val });
      for (const [id, text] of fitted.systemPrompts) systemPrompts.set(id, text);
      fold.train.push(...fitted.examples.filter((e) => e.split === "train"));
      fold.val.push(...fitted.examples.filter((e) => e.split === "val"));
    }
  }
  const settings: Setting[] = flags.noEncoder ? ["", "S"] : ["", "S", "SE"];
  const encoder = flags.noEncoder
    ? undefined
    : await precomputedEncoder(
        folds.flatMap((f) => sentencesToEmbed([...f.val, ...f.test], systemPrompts)),
        flags.threads,
      );
  if (encoder) log("embedded the held-out sentences");
  // Only the test sentences are scored on int8 vectors; validation fits the combiners on fp32.
  const int8 =
    encoder && flags.scoreInt8
      ? await precomputedEncoder(
          folds.flatMap((f) => sentencesToEmbed(f.test, systemPrompts)),
          flags.threads,
          "int8",
        )
      : undefined;

  const figures = new Map<string, Figures[]>();
  for (const fold of folds) {
    const model = await fitLeakModel(fold.train, fold.val, systemPrompts, settings, flags.seed, encoder);
    const views = settings.flatMap((setting) => [
      { setting, on: encoder, suffix: "" },
      ...(int8 && setting === "SE" ? [{ setting, on: int8, suffix: " (int8 encoder)" }] : []),
    ]);
    for (const { setting, on, suffix } of views) {
      const parts = await scoreExamples(fold.test, systemPrompts, model, setting, on);
      const threshold = thresholdFor(model.thresholds, setting);
      for (const usePrompt of [false, true]) {
        const rows = scoreParts(model.combiners, parts, setting, usePrompt);
        const m = atThreshold(rows, threshold);
        const flaggedByKind: Record<string, number> = {};
        for (const kind of new Set(rows.filter((r) => r.label === 0).map((r) => r.kind))) {
          const of = rows.filter((r) => r.label === 0 && r.kind === kind);
          flaggedByKind[kind] = of.filter((r) => r.score >= threshold).length / of.length;
        }
        const name = `${SETTING_NAMES[setting]}${usePrompt ? " + prompt" : ""}${suffix}`;
        const list = figures.get(name) ?? [];
        list.push({
          held: fold.held,
          leaks: rows.filter((r) => r.label === 1).length,
          threshold,
          auc: rocAucOf(rows) ?? Number.NaN,
          ...m,
          flaggedByKind,
        });
        figures.set(name, list);
      }
    }
    log(
      `held out ${fold.held}: train ${fold.train.length}, val ${fold.val.length}, test ${fold.test.length}`,
    );
  }
  console.log(report(figures));
}

/** Per setting, a row per held-out source; then the macro summary the model is selected by. */
export function report(figures: ReadonlyMap<string, readonly Figures[]>): string {
  const out: string[] = [];
  const isPromptSource = (f: Figures) => (PROMPT_SOURCES as readonly string[]).includes(f.held);
  const isAttack = (f: Figures) => (ATTACK_SOURCES as readonly string[]).includes(f.held);
  const isResponses = (f: Figures) => f.held.startsWith("responses/");
  const summary = [
    `| setting | macro F1 | macro FPR | macro ROC-AUC | attack folds: F1 (raccoonbench, project) | response folds: share flagged (${RESPONSE_SOURCES.join(", ")}), mean |`,
    "|---|---:|---:|---:|---|---|",
  ];
  for (const [name, list] of figures) {
    out.push(
      `\n${name}\n`,
      "| held-out source | n | leaks | threshold | ROC-AUC | precision | recall | F1 | FPR |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const f of list) {
      const both = f.leaks > 0 && f.leaks < f.n;
      out.push(
        `| ${f.held} | ${f.n} | ${f.leaks} | ${f.threshold} | ${both ? fmt(f.auc) : "–"} | ${both ? fmt(f.precision) : "–"} | ${f.leaks ? fmt(f.recall) : "–"} | ${both ? fmt(f.f1) : "–"} | ${fmt(f.fpr)} |`,
      );
    }
    const sources = list.filter(isPromptSource);
    const responses = list.filter(isResponses);
    const flagged = responses.map((f) => fmt(f.fpr)).join(", ");
    if (sources.length)
      summary.push(
        `| ${name} | ${fmt(mean(sources.map((f) => f.f1)))} | ${fmt(mean(sources.map((f) => f.fpr)))} | ${fmt(mean(sources.map((f) => f.auc)))} | ${
          list
            .filter(isAttack)
            .map((f) => fmt(f.f1))
            .join(", ") || "–"
        } | ${responses.length ? `${flagged}; ${fmt(mean(responses.map((f) => f.fpr)))}` : "–"} |`,
      );
  }
  const first = [...figures.values()][0]?.filter(isPromptSource) ?? [];
  const kinds = [...new Set(first.flatMap((f) => Object.keys(f.flaggedByKind)))].sort();
  const kindRows = [
    `| setting | ${kinds.join(" | ")} |`,
    `|---|${kinds.map(() => "---:").join("|")}|`,
    ...[...figures].map(
      ([name, list]) =>
        `| ${name} | ${kinds.map((k) => fmt(mean(list.filter(isPromptSource).map((f) => f.flaggedByKind[k] ?? 0)))).join(" | ")} |`,
    ),
  ];
  out.push(
    "\nMacro over the held-out system-prompt sources\n",
    ...summary,
    "\nShare of no-leak responses flagged, macro over the held-out system-prompt sources, by kind\n",
    ...kindRows,
  );
  return out.join("\n");
}

runMain(import.meta.url, main);
