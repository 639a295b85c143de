import type { Lexicon } from "./lexicon.js";
import { KNOWN_ORGS, ORG_SUFFIXES } from "./organizations.js";
import type { PiiSpan, Recognizer } from "./recognizer.js";
import { type Token, tokenize } from "./tokens.js";

const TITLES = new Set([
  "mr",
  "mr.",
  "mrs",
  "mrs.",
  "ms",
  "ms.",
  "miss",
  "dr",
  "dr.",
  "prof",
  "prof.",
  "sir",
  "mx",
  "mx.",
]);
// Lower-case words that sit inside names: "Donald van der Voet", "Maria de la Cruz".
const PARTICLES = new Set([
  "van",
  "der",
  "den",
  "de",
  "la",
  "le",
  "von",
  "da",
  "di",
  "del",
  "du",
  "dos",
  "das",
  "bin",
  "al",
  "y",
  "ter",
  "ten",
]);
const PERSON_CUE =
  /(?:\bname is|\bnamed|\bcalled|\bdear|\bhi|\bhello|\bhey|\bthanks|\bregards|\bsincerely|\battn:?|\battention|\bsigned|\bi'm|\bi am|\bthis is|\bask|\btell|\bmeet|\bmet|\bwith|\band|\bby|\bfrom|\bto)\s*,?\s*$/i;
const PLACE_CUE =
  /(?:\bin|\bfrom|\bto|\bnear|\bvisit|\bvisiting|\bborn in|\blive in|\blives in|\bbased in|\bmoved to|\bcity of|\btown of)\s*$/i;
const ORG_CUE =
  /\b(?:work(?:s|ed|ing)? (?:at|for)|employed (?:at|by)|employer|company|joined|address of|office of|apply to|applied to|job at|contract with)\s*$/i;
const MAX_NAME_TOKENS = 4;

/** Splits the message into runs of capitalised words (names) joined by single spaces or particles. */
function chunks(tokens: readonly Token[], nameLike: ((t: Token) => boolean) | undefined): Token[][] {
  const out: Token[][] = [];
  let run: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    const joins = run.length > 0 && t.gap === " " && !t.sentenceStart;
    const capital = nameLike ? nameLike(t) : t.capital;
    const particle = run.length > 0 && PARTICLES.has(t.text) && next?.capital === true && next.gap === " ";
    if ((capital || particle) && (joins || run.length === 0)) run.push(t);
    else {
      if (run.length > 0) out.push(run);
      run = capital ? [t] : [];
    }
  }
  if (run.length > 0) out.push(run);
  return out;
}

function span(tokens: readonly Token[], from: number, to: number, label: PiiSpan["label"]): PiiSpan {
  return { start: (tokens[from] as Token).start, end: (tokens[to] as Token).end, label };
}

/** PERSON, LOCATION and ORGANIZATION from lexicons, capitalisation and cue words. */
export function createNameRecognizer(lexicon: Lexicon): Recognizer {
  const known = (t: Token) => lexicon.commonWords.has(t.lower) && !lexicon.firstNames.has(t.lower);
  const placeAt = (run: readonly Token[], p: number): number => {
    for (let k = Math.min(lexicon.maxPlaceTokens, run.length - p); k >= 1; k--) {
      const phrase = run
        .slice(p, p + k)
        .map((t) => t.lower)
        .join(" ");
      if (lexicon.places.has(phrase)) return k;
    }
    return 0;
  };
  const orgAt = (run: readonly Token[], p: number): number => {
    for (let k = Math.min(3, run.length - p); k >= 1; k--) {
      if (
        KNOWN_ORGS.has(
          run
            .slice(p, p + k)
            .map((t) => t.lower)
            .join(" "),
        )
      )
        return k;
    }
    return 0;
  };
  const isName = (t: Token) => lexicon.firstNames.has(t.lower) && !lexicon.ambiguousNames.has(t.lower);
  // A surname-like word: capitalised, not an everyday word, not a place or an organisation word.
  const surname = (t: Token) => !known(t) && !ORG_SUFFIXES.has(t.lower) && !/\d/.test(t.text);

  return {
    entities: ["PERSON", "LOCATION", "ORGANIZATION"],
    find(text, out) {
      const lowerText = !/\p{Lu}/u.test(text);
      const tokens = tokenize(text);
      // In all-lower-case text any word outside the everyday vocabulary may be part of a name.
      const nameLike = lowerText ? (t: Token) => !known(t) && /^\p{L}+$/u.test(t.text) : undefined;
      for (const run of chunks(tokens, nameLike)) {
        const suffix = run.findIndex((t, i) => i > 0 && ORG_SUFFIXES.has(t.lower));
        if (suffix > 0) {
          const from = run[0]?.lower === "the" ? 1 : 0;
          if (suffix > from) out.push(span(run, from, suffix, "ORGANIZATION"));
          continue;
        }
        let p = 0;
        while (p < run.length) {
          const t = run[p] as Token;
          const before = text.slice(Math.max(0, t.start - 24), t.start);
          let taken = 0;
          const orgLen = orgAt(run, p);
          if (TITLES.has(t.lower) && p + 1 < run.length) {
            let q = p + 1;
            while (q + 1 < run.length && q - p < MAX_NAME_TOKENS && surname(run[q + 1] as Token)) q++;
            out.push(span(run, p + 1, q, "PERSON"));
            taken = q - p + 1;
          } else if (orgLen > 0) {
            out.push(span(run, p, p + orgLen - 1, "ORGANIZATION"));
            taken = orgLen;
          } else if (isName(t) && !(lowerText && known(t)) && placeAt(run, p) === 0) {
            let q = p;
            while (q + 1 < run.length && q - p < MAX_NAME_TOKENS - 1 && surname(run[q + 1] as Token)) q++;
            out.push(span(run, p, q, "PERSON"));
            taken = q - p + 1;
          } else if (placeAt(run, p) > 0) {
            taken = placeAt(run, p);
            out.push(span(run, p, p + taken - 1, "LOCATION"));
          } else if (!t.sentenceStart && !known(t) && !lowerText) {
            // An unknown proper noun: the words before it say what kind.
            let q = p;
            while (q + 1 < run.length && q - p < MAX_NAME_TOKENS - 1 && surname(run[q + 1] as Token)) q++;
            const label = ORG_CUE.test(before)
              ? "ORGANIZATION"
              : PLACE_CUE.test(before)
                ? "LOCATION"
                : "PERSON";
            if (label !== "PERSON" || PERSON_CUE.test(before) || q > p) out.push(span(run, p, q, label));
            taken = q - p + 1;
          }
          p += Math.max(1, taken);
        }
      }
    },
  };
}
