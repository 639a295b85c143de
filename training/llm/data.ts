import { join } from "node:path";
import { buildBenignFrames } from "./benign-frames.js";
import type { Example } from "./example.js";
import { buildHijacks } from "./hijack-frames.js";
import { buildIndirect } from "./indirect.js";
import { loadProjectData } from "./project-data.js";
import { loadAttacks, loadDeepset, loadPromptmap, loadRaccoonAttacks } from "./sources-attacks.js";
import { loadBenign, loadHarmfulQuestions } from "./sources-benign.js";
import { loadEveryday } from "./sources-everyday.js";
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

export interface DataPaths {
  /** ../shared/datasets */
  shared: string;
  /** The project's datasets/ folder. */
  project: string;
}

/** Every labelled example, in a fixed order (the order dedup keeps first copies by). */
export function loadPool(paths: DataPaths, seed: number): Example[] {
  const injection = join(paths.shared, "injection");
  const harmful = loadHarmfulQuestions(join(paths.shared, "moderation"));
  const benign = loadBenign(injection, seed + 2);
  // Long answers from the benign sources double as carriers for planted payloads.
  const documents = benign.filter((e) => e.kind === "long").map((e) => e.text);
  return [
    ...loadProjectData(paths.project, seed + 5),
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
  ];
}
