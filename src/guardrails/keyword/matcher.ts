import { foldedToClean, toCleanRange } from "../../text/fold-offsets.js";
import { foldText, type NormalizedText } from "../../text/normalize.js";
import type { Finding, Span } from "../types.js";
import { type AhoCorasick, buildAhoCorasick } from "./aho-corasick.js";
import { isWholeWord } from "./word-boundary.js";

export type KeywordMode = "word" | "substring";
/** `spansFrom`: only spans ending after this offset of `text.clean` are wanted (see CheckRequest). */
export type KeywordMatcher = (text: NormalizedText, spansFrom?: number) => Finding;

/** Enough to show where the hits are without letting a hostile text grow the response. */
export const MAX_SPANS = 100;

/** Keywords folded between two pauses of `buildKeywordMatcher` (~1 ms of work). */
const FOLD_SLICE = 1_024;

/**
 * Builds the one-pass matcher for a keyword list. Keywords are folded like the text (case,
 * accents, look-alike letters, full-width forms, invisible characters, whitespace runs), so
 * "IGNORE", "ｉｇｎｏｒｅ" and "іgnоrе" all hit "ignore". Keywords that fold to the same form
 * share one automaton entry and are all reported.
 * A generator that yields between slices of work (see `runSteps` and `runStepsInSlices`).
 */
export function* buildKeywordMatcher(
  keywords: readonly string[],
  mode: KeywordMode,
): Generator<void, KeywordMatcher> {
  const forms: string[] = [];
  const formOf = new Int32Array(keywords.length);
  const formIndex = new Map<string, number>();
  for (let i = 0; i < keywords.length; i++) {
    const form = foldText(keywords[i] as string);
    let index = formIndex.get(form);
    if (index === undefined) {
      index = forms.push(form) - 1;
      formIndex.set(form, index);
    }
    formOf[i] = index;
    if (i % FOLD_SLICE === FOLD_SLICE - 1) yield;
  }
  formIndex.clear();
  const automaton = yield* buildAhoCorasick(forms);
  return matcher(keywords, mode, automaton, formOf);
}

function matcher(
  keywords: readonly string[],
  mode: KeywordMode,
  automaton: AhoCorasick,
  formOf: Int32Array,
): KeywordMatcher {
  // The keywords of form f, ascending: owners[ownerStart[f]] … owners[ownerStart[f + 1] - 1].
  const ownerStart = new Int32Array(automaton.patternCount + 1);
  for (const form of formOf) ownerStart[form + 1] = (ownerStart[form + 1] as number) + 1;
  for (let f = 1; f <= automaton.patternCount; f++) {
    ownerStart[f] = (ownerStart[f] as number) + (ownerStart[f - 1] as number);
  }
  const owners = new Int32Array(keywords.length);
  const next = ownerStart.slice(0, -1);
  formOf.forEach((form, i) => {
    const at = next[form] as number;
    owners[at] = i;
    next[form] = at + 1;
  });
  // The labels of a form's spans: each distinct keyword, as the user wrote it, that folds to it.
  const labels = (form: number) => [
    ...new Set(
      [...owners.subarray(ownerStart[form], ownerStart[form + 1])].map((i) => keywords[i] as string),
    ),
  ];
  const foldLengths = new Map<number, number>();
  // Reused across checks (check is synchronous); only the entries set are cleared.
  const seen = new Uint8Array(automaton.patternCount);

  return (text, spansFrom) => {
    const hits: number[] = [];
    const ranges: { form: number; start: number; end: number }[] = [];
    // With `spansFrom`, hits that end before it take no span, so they cannot use up the cap.
    const before = spansFrom === undefined ? undefined : foldedToClean(text, foldLengths);
    let cut = false;
    automaton.search(text.folded, (form, start, end) => {
      // A form already found, with no room for more spans, has nothing left to learn: nested
      // keywords ("a", "aa", … on "aaaa…") otherwise pay the word test at every occurrence.
      if (seen[form] === 1 && ranges.length >= MAX_SPANS) {
        cut = true;
        return;
      }
      if (mode === "word" && !isWholeWord(text.folded, start, end)) return;
      if (seen[form] === 0) {
        seen[form] = 1;
        hits.push(form);
      }
      if (before && spansFrom !== undefined && before(end) <= spansFrom) return;
      if (ranges.length < MAX_SPANS) ranges.push({ form, start, end });
      else cut = true;
    });
    for (const form of hits) seen[form] = 0;
    if (hits.length === 0) return { flagged: false, matched: [], spans: [] };

    const ids = hits
      .flatMap((form) => [...owners.subarray(ownerStart[form], ownerStart[form + 1])])
      .sort((a, b) => a - b);
    const matched = ids.map((i) => keywords[i] as string);
    // Spans are reported on `clean` (the Span contract), mapped back from folded offsets, one per
    // keyword the range matched ("ALPHA" and "alpha" fold alike): every item of `matched` has its own.
    const toClean = before ?? foldedToClean(text, foldLengths);
    const spans: Span[] = ranges.flatMap(({ form, start, end }) => {
      const range = toCleanRange(toClean, text.clean, start, end);
      return labels(form).map((label) => ({ ...range, label }));
    });
    if (spans.length > MAX_SPANS) {
      spans.length = MAX_SPANS;
      cut = true;
    }
    return { flagged: true, score: 1, matched, spans, ...(cut ? { spansCut: true } : {}) };
  };
}
