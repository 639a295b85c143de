import { z } from "zod";
import { knownName } from "../known-name.js";
import { MODERATION_CATEGORIES, type ModerationCategory } from "./model/categories.js";

const categoryName = knownName(MODERATION_CATEGORIES, "moderation category", "valid");

/**
 * The harm categories a profile flags; all by default. An empty list is refused rather than read as
 * "flag nothing": a guardrail that can never flag is `enabled: false`, said plainly.
 */
export const listedCategories = z
  .array(categoryName)
  .min(1, "list at least one category, or set enabled: false to flag nothing")
  .default([...MODERATION_CATEGORIES])
  // Kept in the taxonomy's order, once each, whatever order the profile wrote them in.
  .transform((names) => MODERATION_CATEGORIES.filter((c) => names.includes(c)));

/** The share of P(category | unsafe) from which the listed categories count whatever the argmax. */
export const LISTED_SHARE = 0.5;

/** A verdict on the category of an unsafe text: does it count for this profile, and as what. */
export interface CategoryVerdict {
  readonly listed: boolean;
  /** The most likely listed category; null when the model gave no category scores. */
  readonly category: ModerationCategory | null;
}

/**
 * Whether an unsafe text's harm is one the profile lists, from P(category | unsafe). It passes only
 * when an allowed category wins on both readings: it is the single most likely category, and the
 * allowed ones hold more than half of the probability. So a profile that allows SPECIALIZED_ADVICE
 * still flags an answer at SPECIALIZED_ADVICE 0.45, SELF_HARM 0.40, and a profile that lists only
 * HATE flags a text whose most likely category is HATE at 0.35. Fail-closed on purpose: a listed
 * harm let through is an incident, an allowed one flagged is what the profile had before. On
 * held-out rows this lets through 1.2% of listed harms where the argmax rule alone lets 1.8%,
 * for 6 points more of the allowed category still flagged (docs/guardrails.md, content_moderation).
 * With every category listed nothing changes: the default profile's verdicts are as before.
 */
export function judgeCategories(
  scores: Readonly<Partial<Record<ModerationCategory, number>>>,
  listed: readonly ModerationCategory[],
): CategoryVerdict {
  let share = 0;
  let total = 0;
  let best = 0;
  let top: { p: number; category: ModerationCategory | null } = { p: -1, category: null };
  for (const c of MODERATION_CATEGORIES) {
    const p = scores[c] ?? 0;
    total += p;
    best = Math.max(best, p);
  }
  for (const c of listed) {
    const p = scores[c] ?? 0;
    share += p;
    if (p > top.p) top = { p, category: c };
  }
  // Ties go to the listed side, the fail-closed one.
  const wins = top.p >= best || share >= total * LISTED_SHARE;
  return { listed: total > 0 && wins, category: top.category };
}
