import { z } from "zod";
import { appliesToSetting } from "../applies-to.js";
import { compileRegex, explainRegexError, type RegexFlag } from "./compile.js";

const FLAG_HELP = 'use any of "i" (ignore case), "m" (^ and $ at line ends), "s" (. matches newline)';

const flags = z
  .string()
  .default("")
  .superRefine((value, ctx) => {
    const unknown = [...value].find((flag) => !"ims".includes(flag));
    if (unknown !== undefined)
      ctx.addIssue({ code: "custom", message: `unknown flag "${unknown}": ${FLAG_HELP}` });
    else if (new Set(value).size !== value.length)
      ctx.addIssue({ code: "custom", message: "repeats a flag" });
  })
  .transform((value) => [...value] as RegexFlag[]);

export const regexPattern = z
  .strictObject({
    /** What `matched` reports; defaults to the pattern source. */
    name: z.string().min(1, "must not be empty").optional(),
    pattern: z.string().min(1, "must not be empty"),
    flags,
    /**
     * `clean` (default): the text with case, accents and script kept, as users write patterns
     * for real text. `folded`: lower-cased, accents stripped, look-alikes folded to Latin, so
     * `ignore\s+previous` also catches "ＩＧＮＯＲＥ  prеvious"; write such patterns in lower case.
     */
    on: z.enum(["clean", "folded"]).default("clean"),
  })
  .superRefine((entry, ctx) => {
    // Compiled here too so a bad pattern is a config error with its field path, not a failure
    // at the first request. The detector compiles again: settings stay plain, printable data.
    // zod still runs this when `flags` failed (and was not transformed): that issue suffices.
    if (!Array.isArray(entry.flags)) return;
    try {
      compileRegex(entry.pattern, entry.flags);
    } catch (error) {
      const label = entry.name === undefined ? "" : `pattern "${entry.name}": `;
      ctx.addIssue({ code: "custom", path: ["pattern"], message: `${label}${explainRegexError(error)}` });
    }
  });

export type RegexPattern = z.infer<typeof regexPattern>;

/** The name `matched` reports for a pattern: its `name`, or its source when it has none. */
export const patternLabel = (entry: { name?: string | undefined; pattern: string }) =>
  entry.name ?? entry.pattern;

export const regexSettings = z
  .strictObject({
    enabled: z.boolean().default(false),
    patterns: z.array(regexPattern).default([]),
    applies_to: appliesToSetting,
  })
  .superRefine((settings, ctx) => {
    if (settings.enabled && settings.patterns.length === 0) {
      const message = "is empty: list at least one { name, pattern }, or set enabled: false";
      ctx.addIssue({ code: "custom", path: ["patterns"], message });
    }
    const seen = new Map<string, number>();
    settings.patterns.forEach((entry, i) => {
      const label = patternLabel(entry);
      const first = seen.get(label);
      if (first === undefined) seen.set(label, i);
      else {
        const field = entry.name === undefined ? "pattern" : "name";
        const message = `"${label}" is already used by patterns[${first}]: names must be unique`;
        ctx.addIssue({ code: "custom", path: ["patterns", i, field], message });
      }
    });
  });

export type RegexSettings = z.infer<typeof regexSettings>;
