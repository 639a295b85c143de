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
// Index-only bits (never features): the word alone is a place / a known organisation / the start
// of a longer place or organisation name.
const PLACE_WORD = 1 << 16;
const ORG_WORD = 1 << 17;
const PHRASE_START = 1 << 18;
const LOOKUP_ONLY = PLACE_WORD | ORG_WORD | PHRASE_START;

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

/**
 * Every lexicon folded into one map from a lower-cased word to its bits (one lookup per token
 * instead of ten), plus the proper prefixes of multi-word places and organisations, so a phrase is
 * only built and looked up while it can still grow into a name.
 */
interface LexiconIndex {
  words: Map<string, number>;
  prefixes: Set<string>;
}

const indexes = new WeakMap<Lexicon, LexiconIndex>();

function indexOf(lexicon: Lexicon): LexiconIndex {
  const cached = indexes.get(lexicon);
  if (cached) return cached;
  const words = new Map<string, number>();
  const mark = (set: Iterable<string>, bit: number) => {
    for (const w of set) words.set(w, (words.get(w) ?? 0) | bit);
  };
  mark(lexicon.firstNames, FIRST_NAME);
  mark(lexicon.ambiguousNames, AMBIGUOUS_NAME);
  mark(lexicon.commonWords, COMMON_WORD);
  mark(ORG_SUFFIXES, ORG_SUFFIX);
  mark(TITLES, TITLE);
  mark(STREETS, STREET);
  mark(PERSON_CUES, PERSON_CUE);
  mark(PLACE_CUES, PLACE_CUE);
  const prefixes = new Set<string>();
  const phrases = (set: Iterable<string>, bit: number) => {
    for (const name of set) {
      const parts = name.split(" ");
      if (parts.length === 1) {
        words.set(name, (words.get(name) ?? 0) | bit);
        continue;
      }
      words.set(parts[0] as string, (words.get(parts[0] as string) ?? 0) | PHRASE_START);
      for (let k = 2; k < parts.length; k++) prefixes.add(parts.slice(0, k).join(" "));
    }
  };
  if (lexicon.maxPlaceTokens >= 1) phrases(lexicon.places, PLACE_WORD);
  phrases(KNOWN_ORGS, ORG_WORD);
  const index = { words, prefixes };
  indexes.set(lexicon, index);
  return index;
}

/** Fills `flags[i]` for every token; multi-word places and organisations mark all their tokens. */
export function lexiconFlags(
  lexicon: Lexicon,
  tokens: TaggerTokens,
  lower: readonly string[],
  flags: Int32Array,
) {
  const { words, prefixes } = indexOf(lexicon);
  const n = tokens.count;
  flags.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    const w = lower[i] as string;
    const bits = words.get(w) ?? 0;
    flags[i] = (flags[i] as number) | (bits & ~LOOKUP_ONLY);
    if ((bits & LOOKUP_ONLY) === 0 || !isWord(w)) continue;
    let place = bits & PLACE_WORD ? 1 : 0;
    let org = bits & ORG_WORD ? 1 : 0;
    if (bits & PHRASE_START) {
      let phrase = w;
      // Words joined by single spaces only: "New York" but not "New. York".
      for (let k = 1; k < MAX_PHRASE && i + k < n; k++) {
        const j = i + k;
        const next = lower[j] as string;
        if (!isWord(next) || tokens.starts[j] !== (tokens.ends[j - 1] as number) + 1) break;
        phrase = `${phrase} ${next}`;
        if (k < lexicon.maxPlaceTokens && lexicon.places.has(phrase)) place = k + 1;
        if (KNOWN_ORGS.has(phrase)) org = k + 1;
        if (!prefixes.has(phrase)) break;
      }
    }
    for (let k = 0; k < place; k++)
      flags[i + k] = (flags[i + k] as number) | (k === 0 ? PLACE_BEGIN : PLACE_INSIDE);
    for (let k = 0; k < org; k++) flags[i + k] = (flags[i + k] as number) | KNOWN_ORG;
  }
}

function isWord(w: string): boolean {
  const c = w.charCodeAt(0);
  return c > 127 || (c >= 97 && c <= 122);
}
