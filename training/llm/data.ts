import { join, resolve } from "node:path";
import { hashRange } from "../../src/text/hash.js";
import { flag } from "../lib/flags.js";
import { REPO, SHARED_DATASETS } from "../lib/paths.js";
import { buildBenignFrames } from "./benign-frames.js";
import { dedup } from "./dedup.js";
import type { Example } from "./example.js";
import { addExtraToTrain, loadExtra } from "./extra-data.js";
import { buildHijacks } from "./hijack-frames.js";
import { buildIndirect } from "./indirect.js";
import { plantDirectAttacks } from "./plant-direct.js";
import { loadProjectData } from "./project-data.js";
import { loadAttacks, loadDeepset, loadPromptmap, loadRaccoonAttacks } from "./sources-attacks.js";
import { loadBenign, loadHarmfulQuestions } from "./sources-benign.js";
import { loadEveryday } from "./sources-everyday.js";
import { loadRound4 } from "./sources-round4.js";
import { splitByFamily } from "./split.js";
import { buildTriggerNegatives } from "./trigger-negatives.js";

/** Sources kept wholly out of training and calibration: the closest thing to unseen data. */
export const HELDOUT_SOURCES = new Set([
  "deepset",
  "self_instruct",
  "promptmap-jailbreak",
  "promptmap-prompt_stealing",
  "promptmap-distraction",
  "promptmap-harmful",
  "promptmap-hate",
  "promptmap-social_bias",
]);

/** The flags that say where the pool comes from (train.ts, errors.ts). */
export const DATA_FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  project: flag.path(resolve(REPO, "datasets"), "the project's own data sets"),
  round4: flag.boolean(
    "also train on the injection sets added for issue 12 (sources-round4.ts; not yet in the shipped model)",
  ),
  systemPrompts: flag.boolean(
    "also train on the project's written prompts addressed to a model (datasets/prompts/*.jsonl) as benign hard negatives (issue 22, round 5)",
  ),
  plantInPrompts: flag.boolean(
    "with --system-prompts: also each written prompt with one of the project's direct attacks planted in it, as an attack of the same family",
  ),
};

export interface DataPaths {
  /** ../shared/datasets */
  shared: string;
  /** The project's datasets/ folder. */
  project: string;
  /** Include the sets added for issue 12 (sources-round4.ts). */
  round4: boolean;
  /** Include the project's written system prompts (project-data.ts loadSystemPrompts). */
  systemPrompts?: boolean;
  /** With systemPrompts: each also with a direct attack planted in it (project-data.ts plantAttacks). */
  plantInPrompts?: boolean;
}

/** Every labelled example, in a fixed order (the order dedup keeps first copies by). */
export function loadPool(paths: DataPaths, seed: number): Example[] {
  const injection = join(paths.shared, "injection");
  const harmful = loadHarmfulQuestions(join(paths.shared, "moderation"));
  const benign = loadBenign(injection, seed + 2);
  // Long answers from the benign sources double as carriers for planted payloads.
  const documents = benign.filter((e) => e.kind === "long").map((e) => e.text);
  const project = loadProjectData(paths.project, seed + 5, {
    systemPrompts: paths.systemPrompts ?? false,
    plantInPrompts: paths.plantInPrompts ?? false,
  });
  const projectAttacks = project.filter((e) => e.label === 1 && e.kind === "prompt").map((e) => e.text);
  return [
    ...project,
    ...buildTriggerNegatives(seed + 3),
    ...buildBenignFrames(seed + 6),
    ...buildHijacks(seed + 7),
    ...loadRaccoonAttacks(join(paths.shared, "leakage")),
    ...loadAttacks(injection, harmful.fill, seed),
    ...buildIndirect(injection, documents, seed + 1),
    ...benign,
    ...harmful.plain,
    ...loadEveryday(join(paths.shared, "moderation"), seed + 4),
    ...loadDeepset(injection),
    ...loadPromptmap(injection),
    // Last, so that where a new text nearly repeats an older one, the older copy is the one kept.
    ...(paths.round4 ? loadRound4(injection, documents, projectAttacks, seed + 8) : []),
  ];
}

export interface SplitOptions {
  seed: number;
  /** Extra training rows (training/data/injection-extra): the folder as given, and resolved. */
  extra?: { name: string; dir: string };
  plantDirect: boolean;
  /** With a refit the calibration split is trained on too, so its texts get planted copies. */
  refit: number;
  /** Keep only this share of training families: a learning curve. */
  trainFraction: number;
}

/**
 * The pool, near-duplicates dropped, split by template family (split.ts), then the training split's
 * additions: extra data, planted direct attacks, and a learning curve's cut.
 */
export function loadSplits(paths: DataPaths, o: SplitOptions, log: (m: string) => void) {
  const pool = loadPool(paths, o.seed);
  const { kept, family, dropped } = dedup(pool);
  const { splits, leaked } = splitByFamily(kept, family, HELDOUT_SOURCES, o.seed);
  if (o.extra) {
    const extra = addExtraToTrain(splits, loadExtra(o.extra.dir, o.seed + 9));
    for (const e of extra.added) family.set(e, e.group);
    log(
      `extra data (${o.extra.name}): ${extra.added.length} training rows, ${extra.dropped} dropped as near-copies of calibration / test / held-out texts`,
    );
  }
  if (o.plantDirect) {
    // Training rows only. With a refit the calibration texts are trained on too, so their planted
    // copies join them; folds are by family, so a text is never scored by a fit on its own copy.
    const from = o.refit > 0 ? (["train", "calibration"] as const) : (["train"] as const);
    let added = 0;
    for (const [k, name] of from.entries()) {
      const made = plantDirectAttacks(splits[name], (e) => family.get(e) ?? e.group, o.seed + 11 + k);
      for (const [e, f] of made.family) family.set(e, f);
      splits.train.push(...made.planted);
      added += made.planted.length;
    }
    log(`planted ${added} short direct attacks into documents of their own split (training rows)`);
  }
  if (o.trainFraction < 1) {
    splits.train = splits.train.filter((e) => {
      const f = family.get(e) ?? e.group;
      return hashRange(o.seed + 99, f, 0, f.length) / 4294967296 < o.trainFraction;
    });
  }
  log(
    `${pool.length} examples; dropped ${dropped.duplicates} near-duplicates, ${dropped.conflicts} label conflicts, ${leaked} near-copies of held-out texts`,
  );
  return { splits, family: (e: Example) => family.get(e) ?? e.group };
}
