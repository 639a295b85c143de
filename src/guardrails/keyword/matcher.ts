import { foldedToClean, toCleanRange } from "../../text/fold-offsets.js";
import { foldText, type NormalizedText } from "../../text/normalize.js";
import type { Finding, Span } from "../types.js";
import { createAhoCorasick } from "./aho-corasick.js";
import { isWholeWord } from "./word-boundary.js";

export type KeywordMode = "word" | "substring";

/** Enough to show where the hits are without letting a hostile text grow the response. */
export const MAX_SPANS = 100;

/**
 * Builds the one-pass matcher for a keyword list. Keywords are folded like the text (case,
 * accents, look-alike letters, full-width forms, invisible characters, whitespace runs), so
 * "IGNORE", "ｉｇｎｏｒｅ" and "іgnоrе" all hit "ignore". Keywords that fold to the same form
 * share one automaton entry and are all reported.
 */
export function createKeywordMatcher(
  keywords: readonly string[],
  mode: KeywordMode,
): (text: NormalizedText) => Finding {
  const forms: string[] = [];
  const owners: number[][] = []; // keyword indices per folded form, ascending
  const formIndex = new Map<string, number>();
  keywords.forEach((keyword, i) => {
    const form = foldText(keyword);
    let index = formIndex.get(form);
    if (index === undefined) {
      index = forms.push(form) - 1;
      formIndex.set(form, index);
      owners.push([]);
    }
    owners[index]?.push(i);
  });
  // The label of a form's spans: the first keyword, as the user wrote it, that folds to it.
  const labels = owners.map((ids) => keywords[ids[0] as number] as string);
  const automaton = createAhoCorasick(forms);
  const foldLengths = new Map<number, number>();
  // Reused across checks (check is synchronous); only the entries set are cleared.
  const seen = new Uint8Array(forms.length);

  return (text) => {
    const hits: number[] = [];
    const ranges: { form: number; start: number; end: number }[] = [];
    automaton.search(text.folded, (form, start, end) => {
      if (mode === "word" && !isWholeWord(text.folded, start, end)) return;
      if (seen[form] === 0) {
        seen[form] = 1;
        hits.push(form);
      }
      if (ranges.length < MAX_SPANS) ranges.push({ form, start, end });
    });
    for (const form of hits) seen[form] = 0;
    if (hits.length === 0) return { flagged: false, matched: [], spans: [] };

    const ids = hits.flatMap((form) => owners[form] ?? []).sort((a, b) => a - b);
    const matched = ids.map((i) => keywords[i] as string);
    // Spans are reported on `clean` (the Span contract), mapped back from folded offsets.
    const toClean = foldedToClean(text, foldLengths);
    const spans: Span[] = ranges.map(({ form, start, end }) => ({
      ...toCleanRange(toClean, text.clean, start, end),
      label: labels[form] as string,
    }));
    return { flagged: true, score: 1, matched, spans };
  };
}
