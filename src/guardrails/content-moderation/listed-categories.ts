import { z } from "zod";
import { MODERATION_CATEGORIES, type ModerationCategory } from "./model/categories.js";

const KNOWN = new Set<string>(MODERATION_CATEGORIES);

// A plain string checked by hand (as pii's entities), so an unknown name gets one message listing every category.
const categoryName = z.string().refine((name) => KNOWN.has(name), {
  error: (issue) =>
    `unknown moderation category "${String(issue.input)}"; valid: ${MODERATION_CATEGORIES.join(", ")}`,
});

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

/** A share of exactly one half counts as listed: a tie goes to flagging, the fail-closed side. */
export const LISTED_SHARE = 0.5;

/** A verdict on the category of an unsafe text: does it count for this profile, and as what. */
export interface CategoryVerdict {
  readonly listed: boolean;
  /** The most likely listed category; null when the model gave no category scores. */
  readonly category: ModerationCategory | null;
}

/**
 * Whether an unsafe text's harm is one the profile lists, from P(category | unsafe): listed when the
 * listed categories together hold at least half of it. That is the likelier side of "a listed harm
 * or an allowed one", and it does not depend on how finely the taxonomy splits a harm: an answer at
 * SPECIALIZED_ADVICE 0.45, SELF_HARM 0.40 is still flagged by a profile that allows only the first.
 * With every category listed the share is 1, so the default profile's verdicts are unchanged.
 * Measured against the argmax rule in the README (content_moderation, "Categories").
 */
export function judgeCategories(
  scores: Readonly<Partial<Record<ModerationCategory, number>>>,
  listed: readonly ModerationCategory[],
): CategoryVerdict {
  let share = 0;
  let total = 0;
  let top: { p: number; category: ModerationCategory | null } = { p: -1, category: null };
  for (const c of MODERATION_CATEGORIES) total += scores[c] ?? 0;
  for (const c of listed) {
    const p = scores[c] ?? 0;
    share += p;
    if (p > top.p) top = { p, category: c };
  }
  // Every category listed: unchanged behaviour exactly, whatever rounding does to the sum.
  if (listed.length === MODERATION_CATEGORIES.length) return { listed: true, category: top.category };
  return { listed: total > 0 && share >= total * LISTED_SHARE, category: top.category };
}
