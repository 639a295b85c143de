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
 */
import type { Split } from "./families.js";
import { generateExamples, type LeakExample, splitOf } from "./generate.js";
import type { SourcePrompt } from "./load-prompts.js";

export const PROMPT_SOURCES = [
  "raccoonbench/GPTs50",
  "raccoonbench/GPTs146",
  "chatgpt_system_prompt/official-product",
  "chatgpt_system_prompt/opensource-prj",
] as const;
export const ATTACK_SOURCES = ["attacks/raccoonbench", "attacks/project"] as const;
export type HeldOut = (typeof PROMPT_SOURCES)[number] | (typeof ATTACK_SOURCES)[number];

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
): Fold {
  const byAttackSplit = (train: boolean) =>
    attacks.filter((a) => (splitOf(a.id) === "train") === train).map((a) => a.text);
  const fold: Fold = { held, train: [], val: [], test: [] };
  for (const p of prompts) {
    let role: Split;
    let own: readonly string[];
    let ownAttacks = true;
    if (held === "attacks/raccoonbench" || held === "attacks/project") {
      role = splitOf(p.id);
      const testing = role === "test";
      // Held out: RaccoonBench's attacks appear only in test; or the project's appear only in test.
      const publicOnly = held === "attacks/project" ? !testing : testing;
      own = publicOnly ? attacks.map((a) => a.text) : [];
      ownAttacks = !publicOnly;
    } else {
      const isHeld = promptSource(p.id) === held;
      role = isHeld ? "test" : splitOf(p.id) === "val" ? "val" : "train";
      own = byAttackSplit(role === "train");
    }
    fold[role].push(...generateExamples(p, role, own, seed, { ownAttacks }));
  }
  return fold;
}
