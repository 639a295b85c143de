import { z } from "zod";
import { foldText } from "../../text/normalize.js";
import type { Detector, GuardrailDefinition } from "../types.js";
import { createKeywordMatcher } from "./matcher.js";

const keyword = z
  .string()
  .refine(
    (value) => foldText(value).length > 0,
    "must contain a visible character (it is blank once normalised)",
  );

export const keywordSettings = z
  .strictObject({
    enabled: z.boolean().default(false),
    keywords: z.array(keyword).default([]),
    /** `word`: whole words and phrases only ("ignore" misses "ignored"); `substring`: anywhere. */
    match: z.enum(["word", "substring"]).default("word"),
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
export const keywordGuardrail: GuardrailDefinition<KeywordSettings, Detector> = {
  id: "keyword",
  appliesTo: ["input", "output"],
  settings: keywordSettings,
  create(settings) {
    const match = createKeywordMatcher(settings.keywords, settings.match);
    return { check: (request) => match(request.text) };
  },
  render(finding) {
    if (!finding) return { enabled: false, detected: false, matched: [] };
    return { enabled: true, detected: finding.flagged, matched: [...(finding.matched ?? [])] };
  },
};
