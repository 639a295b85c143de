import { foldedToClean, toCleanRange } from "../../text/fold-offsets.js";
import type { CheckRequest, Finding, GuardrailDefinition, Span } from "../types.js";
import { compileRegex } from "./compile.js";
import { patternLabel, type RegexSettings, regexSettings } from "./settings.js";

/** Enough to show where the hits are without letting a hostile text grow the response. */
const MAX_SPANS = 100;
// RE2 finds one match in linear time, but a pattern like `[a-z]+\d|a` has to read to the end of
// the text to settle each match it finds: 100 spans of 100,000 "a"s took 0.6 s. Spans say where the
// hits are, not whether there are any (`test` decides that), so their search stops after 10 ms.
const SPAN_SEARCH_MS = 10;

type Compiled = { label: string; regex: ReturnType<typeof compileRegex>; on: "clean" | "folded" };

function checkText(
  patterns: readonly Compiled[],
  { text, spansFrom }: CheckRequest,
  foldLengths: Map<number, number>,
): Finding {
  const matched: string[] = [];
  const spans: Span[] = [];
  let searching = 0; // milliseconds spent finding spans so far
  let cut = false; // a match may have been left without a span
  for (const { label, regex, on } of patterns) {
    const subject = on === "folded" ? text.folded : text.clean;
    // test() runs RE2's DFA without captures; positions are only worth a second pass on a hit.
    if (!regex.test(subject)) continue;
    matched.push(label);
    if (spans.length >= MAX_SPANS || searching > SPAN_SEARCH_MS) {
      cut = true;
      continue;
    }
    const started = performance.now();
    const toClean = on === "folded" ? foldedToClean(text, foldLengths) : undefined;
    for (const match of regex.matchAll(subject)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      const range = toClean ? toCleanRange(toClean, text.clean, start, end) : { start, end };
      if (spansFrom === undefined || range.end > spansFrom) spans.push({ ...range, label });
      if (spans.length >= MAX_SPANS || searching + performance.now() - started > SPAN_SEARCH_MS) {
        cut = true;
        break;
      }
    }
    searching += performance.now() - started;
  }
  const spansCut = cut ? { spansCut: true } : {};
  return matched.length > 0
    ? { flagged: true, score: 1, matched, spans, ...spansCut }
    : { flagged: false, matched, spans };
}

/**
 * Flags texts matching any configured pattern. Patterns run on RE2 (re2js): linear time in the
 * text whatever the pattern, so a profile cannot make a request hang (no ReDoS); the price is no
 * lookarounds or backreferences, rejected at config load. `matched` lists pattern names (or the
 * source of unnamed ones) in configuration order; spans are in `text.clean` coordinates.
 * RE2 notes for users: `\b`, `\w` and `\d` are ASCII-only (use `\pL`, `\p{N}` for other
 * scripts), and `clean` text has whitespace collapsed to single spaces, so `m` and `s` only
 * matter for patterns that spell out other line ends.
 */
export const regexGuardrail = {
  id: "regex",
  appliesTo: ["input", "output"],
  settings: regexSettings,
  reportsSpans: true,
  create(settings) {
    const patterns: Compiled[] = settings.patterns.map((entry) => ({
      label: patternLabel(entry),
      regex: compileRegex(entry.pattern, entry.flags),
      on: entry.on,
    }));
    const foldLengths = new Map<number, number>();
    return { check: (request) => checkText(patterns, request, foldLengths) };
  },
  render(finding) {
    if (!finding) return { enabled: false, detected: false, matched: [] };
    return { enabled: true, detected: finding.flagged, matched: [...(finding.matched ?? [])] };
  },
} satisfies GuardrailDefinition<RegexSettings>;
