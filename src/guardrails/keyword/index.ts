import { z } from "zod";
import { foldText } from "../../text/normalize.js";
import { appliesToSetting } from "../applies-to.js";
import type { GuardrailDefinition } from "../types.js";
import { buildKeywordMatcher, type KeywordMatcher } from "./matcher.js";
import { runSteps, runStepsInSlices } from "./steps.js";

/**
 * Lists up to this many characters (~6,000 keywords) build at once: ~30 ms in a fresh process.
 * Longer ones build in slices between event-loop turns (~5 ms each, a few up to ~15 ms), and
 * checks made meanwhile wait for the build: 100,000 keywords take ~0.4 s, during which a
 * running server keeps answering.
 */
export const BUILD_AT_ONCE = 120_000;

// An ASCII letter or digit survives folding (it is only lower-cased), so most keywords need not
// be folded twice, here and when the matcher is built: 100,000 keywords validate in ~20 ms.
const ASCII_WORD = /[A-Za-z0-9]/;
const keyword = z
  .string()
  .refine(
    (value) => ASCII_WORD.test(value) || foldText(value).length > 0,
    "must contain a visible character (it is blank once normalised)",
  );

export const keywordSettings = z
  .strictObject({
    enabled: z.boolean().default(false),
    keywords: z.array(keyword).default([]),
    /** `word`: whole words and phrases only ("ignore" misses "ignored"); `substring`: anywhere. */
    match: z.enum(["word", "substring"]).default("word"),
    applies_to: appliesToSetting,
  })
  .superRefine((settings, ctx) => {
    if (settings.enabled && settings.keywords.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["keywords"],
        message: "is empty: list at least one keyword, or set enabled: false",
      });
    }
  });

export type KeywordSettings = z.infer<typeof keywordSettings>;

/**
 * Flags texts containing any configured keyword or phrase, case- and look-alike-insensitively,
 * in one Aho–Corasick pass over `text.folded` whatever the number of keywords.
 * `matched` lists the configured keywords as written, once each, in configuration order.
 */
export const keywordGuardrail = {
  id: "keyword",
  appliesTo: ["input", "output"],
  settings: keywordSettings,
  reportsSpans: true,
  create(settings) {
    const steps = buildKeywordMatcher(settings.keywords, settings.match);
    const size = settings.keywords.reduce((sum, keyword) => sum + keyword.length, 0);
    if (size <= BUILD_AT_ONCE) {
      const match = runSteps(steps);
      return { check: (request) => match(request.text, request.spansFrom) };
    }
    let match: KeywordMatcher | undefined;
    const ready = runStepsInSlices(steps);
    // A failed build (out of memory) fails each check, which the profile's on_error then decides.
    ready.then(
      (built) => (match = built),
      () => {},
    );
    return {
      check: (request) =>
        match
          ? match(request.text, request.spansFrom)
          : ready.then((built) => built(request.text, request.spansFrom)),
    };
  },
  render(finding) {
    if (!finding) return { enabled: false, detected: false, matched: [] };
    return { enabled: true, detected: finding.flagged, matched: [...(finding.matched ?? [])] };
  },
} satisfies GuardrailDefinition<KeywordSettings>;
