import type { Lexicon } from "../lexicon.js";
import { KNOWN_ORGS, ORG_SUFFIXES } from "../organizations.js";
import type { TaggerTokens } from "./tokenize.js";

/** Bits of what the lexicons say about a token; each set bit becomes a feature of its own. */
export const FLAG_BITS = 11;
const FIRST_NAME = 1;
const AMBIGUOUS_NAME = 2;
const COMMON_WORD = 4;
const PLACE_BEGIN = 8;
const PLACE_INSIDE = 16;
const ORG_SUFFIX = 32;
const KNOWN_ORG = 64;
const TITLE = 128;
const STREET = 256;
const PERSON_CUE = 512;
const PLACE_CUE = 1024;

const TITLES = new Set(["mr", "mrs", "ms", "miss", "dr", "prof", "sir", "mx", "madam", "lady", "lord"]);
// USPS Publication 28 street suffixes people actually write, plus a few European street words.
const STREETS = new Set(
  (
    "street st road rd avenue ave boulevard blvd lane ln drive dr court ct place pl square sq way terrace " +
    "parkway pkwy highway hwy circle cir trail crescent close row alley plaza grove gardens walk mews " +
    "apt apartment suite ste unit box po flat floor via rue calle avenida rua strasse straße weg gasse"
  ).split(" "),
);
const PERSON_CUES = new Set(
  "name named called dear hi hello hey thanks regards sincerely attn attention signed meet met ask tell".split(
    " ",
  ),
);
const PLACE_CUES = new Set(
  "in from near visit visiting born live lives living based moved city town".split(" "),
);
const MAX_PHRASE = 4;

/** Fills `flags[i]` for every token; multi-word places and organisations mark all their tokens. */
export function lexiconFlags(
  lexicon: Lexicon,
  tokens: TaggerTokens,
  lower: readonly string[],
  flags: Int32Array,
) {
  const n = tokens.count;
  for (let i = 0; i < n; i++) {
    const w = lower[i] as string;
    let f = 0;
    if (lexicon.firstNames.has(w)) f |= FIRST_NAME;
    if (lexicon.ambiguousNames.has(w)) f |= AMBIGUOUS_NAME;
    if (lexicon.commonWords.has(w)) f |= COMMON_WORD;
    if (ORG_SUFFIXES.has(w)) f |= ORG_SUFFIX;
    if (TITLES.has(w)) f |= TITLE;
    if (STREETS.has(w)) f |= STREET;
    if (PERSON_CUES.has(w)) f |= PERSON_CUE;
    if (PLACE_CUES.has(w)) f |= PLACE_CUE;
    flags[i] = f;
  }
  for (let i = 0; i < n; i++) {
    if (!isWord(lower[i] as string)) continue;
    let phrase = "";
    let place = 0;
    let org = 0;
    // Words joined by single spaces only: "New York" but not "New. York".
    for (let k = 0; k < MAX_PHRASE && i + k < n; k++) {
      const j = i + k;
      if (!isWord(lower[j] as string) || (k > 0 && tokens.starts[j] !== (tokens.ends[j - 1] as number) + 1))
        break;
      phrase = k === 0 ? (lower[j] as string) : `${phrase} ${lower[j]}`;
      if (k < lexicon.maxPlaceTokens && lexicon.places.has(phrase)) place = k + 1;
      if (KNOWN_ORGS.has(phrase)) org = k + 1;
    }
    for (let k = 0; k < place; k++)
      flags[i + k] = (flags[i + k] ?? 0) | (k === 0 ? PLACE_BEGIN : PLACE_INSIDE);
    for (let k = 0; k < org; k++) flags[i + k] = (flags[i + k] ?? 0) | KNOWN_ORG;
  }
}

function isWord(w: string): boolean {
  const c = w.charCodeAt(0);
  return c > 127 || (c >= 97 && c <= 122);
}
