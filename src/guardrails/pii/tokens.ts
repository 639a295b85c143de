/** A word of the message with what the name rules need to know about its shape. */
export interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly lower: string;
  /** Starts with an upper-case letter (Title case or ALL CAPS). */
  readonly capital: boolean;
  /** First word of a sentence or line, where a capital letter proves nothing. */
  readonly sentenceStart: boolean;
  /** Characters between the previous token and this one. */
  readonly gap: string;
}

// Letters with inner apostrophes, hyphens or periods (O'Brien, Jean-Luc, St.), or a digit run.
const WORD = /\p{L}[\p{L}\p{M}]*(?:['’\-.]\p{L}[\p{L}\p{M}]*)*\.?|\d+/gu;
// "Mr. Ford", "St. Louis": a short abbreviation's period does not end the sentence.
const ABBREVIATION = /^(?:\p{L}{1,3}|Prof|Miss)\.$/u;
const UPPER = /^\p{Lu}/u;
const SENTENCE_END = /[.!?:;"“”•|>*\-–—([]\s*$/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let prevEnd = 0;
  for (const m of text.matchAll(WORD)) {
    let value = m[0];
    // Keep the period of abbreviations ("Mr.", "St.") but not a sentence-final one.
    if (value.endsWith(".") && value.length > 4 && !value.slice(0, -1).includes("."))
      value = value.slice(0, -1);
    const gap = text.slice(prevEnd, m.index);
    const previous = tokens[tokens.length - 1];
    tokens.push({
      start: m.index,
      end: m.index + value.length,
      text: value,
      lower: value.toLowerCase(),
      capital: UPPER.test(value),
      sentenceStart:
        previous === undefined ||
        SENTENCE_END.test(gap) ||
        (previous.text.endsWith(".") && !ABBREVIATION.test(previous.text)),
      gap,
    });
    prevEnd = m.index + value.length;
  }
  return tokens;
}
