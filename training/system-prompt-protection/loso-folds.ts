/**
 * The folds of the leak model's leave-one-source-out evaluation (loso.ts). The system prompts come
 * from four public sources, the extraction attempts from two (RaccoonBench's attack files and the
 * project's own); each is held out in turn.
 *
 * A system-prompt fold: the held-out source's prompts are the test set, generated with the
 * held-out third of every template list (families.ts) and the held-out RaccoonBench attacks, as
 * train.ts's test split is. The other sources keep train.ts's split by prompt: its validation
 * share fits the combiners and the threshold, the rest (its train and test shares) the n-gram
 * classifiers.
 *
 * An attack fold: the prompts keep train.ts's split; training and validation ask with the other
 * kind of attack only, the test split with the held-out kind only.
 *
 * Real model responses (real-responses.ts), when given, join training and validation by their
 * split key in every fold; a response fold holds one of their sources out as its whole test set
 * (all no-leak: it measures the share flagged), its system prompts split as in a prompt fold's
 * training sources.
 */
import type { Split } from "./families.js";
import { generateExamples, type LeakExample, splitOf } from "./generate.js";
import type { SourcePrompt } from "./load-prompts.js";
import { RESPONSE_SOURCES, type RealResponse, realExample } from "./real-responses.js";

export const PROMPT_SOURCES = [
  "raccoonbench/GPTs50",
  "raccoonbench/GPTs146",
  "chatgpt_system_prompt/official-product",
  "chatgpt_system_prompt/opensource-prj",
] as const;
export const ATTACK_SOURCES = ["attacks/raccoonbench", "attacks/project"] as const;
export const RESPONSE_FOLDS = RESPONSE_SOURCES.map((s) => `responses/${s}` as const);
export type HeldOut =
  | (typeof PROMPT_SOURCES)[number]
  | (typeof ATTACK_SOURCES)[number]
  | (typeof RESPONSE_FOLDS)[number];

/** The public source of a system prompt: the first two folders of its path under leakage/. */
export function promptSource(id: string): string {
  return id.split("/").slice(0, 2).join("/");
}

export interface Fold {
  readonly held: HeldOut;
  readonly train: LeakExample[];
  readonly val: LeakExample[];
  readonly test: LeakExample[];
}

export function losoFold(
  held: HeldOut,
  prompts: readonly SourcePrompt[],
  attacks: readonly { id: string; text: string }[],
  seed: number,
  responses: readonly RealResponse[] = [],
): Fold {
  const byAttackSplit = (train: boolean) =>
    attacks.filter((a) => (splitOf(a.id) === "train") === train).map((a) => a.text);
  const attackFold = held === "attacks/raccoonbench" || held === "attacks/project";
  const responseFold = held.startsWith("responses/");
  // Outside an attack fold, what is not held out fits: validation by its split key, else training.
  const fitting = (id: string): Split => (splitOf(id) === "val" ? "val" : "train");
  const fold: Fold = { held, train: [], val: [], test: [] };
  const groups: Record<Split, string[]> = { train: [], val: [], test: [] };
  for (const p of prompts) {
    let role: Split;
    let own: readonly string[];
    let ownAttacks = true;
    if (attackFold) {
      role = splitOf(p.id);
      const testing = role === "test";
      // Held out: RaccoonBench's attacks appear only in test; or the project's appear only in test.
      const publicOnly = held === "attacks/project" ? !testing : testing;
      own = publicOnly ? attacks.map((a) => a.text) : [];
      ownAttacks = !publicOnly;
    } else {
      role = !responseFold && promptSource(p.id) === held ? "test" : fitting(p.id);
      own = byAttackSplit(role === "train");
    }
    groups[role].push(p.id);
    fold[role].push(...generateExamples(p, role, own, seed, { ownAttacks }));
  }
  for (const r of responses) {
    const isHeld = `responses/${r.source}` === held;
    const role = isHeld ? "test" : fitting(r.id);
    // A held-out response is scored against any system prompt: the pairing only feeds the overlap parts.
    fold[role].push(realExample(r, role, isHeld ? prompts.map((p) => p.id) : groups[role]));
  }
  return fold;
}
