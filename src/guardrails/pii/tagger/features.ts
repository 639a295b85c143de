import type { Lexicon } from "../lexicon.js";
import { begin, finish, hashString, mix } from "./hash.js";
import { FLAG_BITS, lexiconFlags } from "./lexicon-flags.js";
import {
  BODY,
  FLAGS_LOW,
  HEAD,
  hashTemplates,
  NEXT,
  NEXT2,
  PREV,
  PREV2,
  SHAPE,
  SHAPE_NEXT,
  SHAPE_NEXT2,
  SHAPE_PREV,
  SHAPE_PREV2,
  START_CASE,
  TAIL,
  WORD,
  WRITTEN,
} from "./templates.js";
import type { TaggerTokens } from "./tokenize.js";

/** Upper bound on the static features of one token (the templates below stay well under it). */
export const MAX_FEATURES = 64;
/** Features that depend on the tags already chosen; computed during decoding. */
export const TRANSITION_FEATURES = 3;

/**
 * Per-message feature state. After `prepare`, `rows` holds, for token i, MAX_FEATURES hashed
 * features (unmasked; the model masks them to its table size) in rows[i * MAX_FEATURES ...],
 * `counts[i]` of them used: what training reads. The tagger calls `prepareTokens` and then
 * `featuresOf` token by token, so a long message needs no rows buffer (64 ints a token).
 */
export interface Featurizer {
  prepare(text: string, tokens: TaggerTokens): void;
  /** The per-token state only (hashes, lexicon flags, shape keys). */
  prepareTokens(text: string, tokens: TaggerTokens): void;
  /** Writes token i's static features into `out` from index 0; returns how many. */
  featuresOf(i: number, out: Int32Array): number;
  rows: Int32Array;
  counts: Int32Array;
  /** A hash of each token's shape, for the tag-history features. */
  shapeKeys: Int32Array;
}

// Feature hashes are built by mixing 32-bit parts into a per-template seed (see hash.ts `mix`).
const T = Array.from({ length: 32 }, (_, t) => begin(t) | 0);
const seed = (t: number) => T[t] as number;
const PREVIOUS_TAG = begin(90) | 0;
const PREVIOUS_TAGS = begin(91) | 0;
const PREVIOUS_TAG_SHAPE = begin(92) | 0;
// Tag history without the shape is a function of two small numbers: a table, not a hash per token.
const HISTORY = 16;
const PREVIOUS_ROWS = Int32Array.from({ length: HISTORY }, (_, p) => finish(mix(PREVIOUS_TAG, p)));
const PREVIOUS2_ROWS = Int32Array.from({ length: HISTORY * HISTORY }, (_, k) =>
  finish(mix(mix(PREVIOUS_TAGS, k >> 4), k & 15)),
);

/** The three tag-history features of a token given the two previous tags and its shape key. */
export function transitionRows(previous: number, previous2: number, shapeKey: number, out: Int32Array): void {
  out[0] = PREVIOUS_ROWS[previous] as number;
  out[1] = PREVIOUS2_ROWS[previous * HISTORY + previous2] as number;
  out[2] = finish(mix(mix(PREVIOUS_TAG_SHAPE, previous), shapeKey));
}

const PAD = hashString("<s>");
const END = hashString("</s>");
const BIAS = finish(seed(0));
// Lexicon bit features: constants, indexed by bit (and by caselessness for the token's own bits).
const FLAG_HERE = Int32Array.from({ length: FLAG_BITS * 2 }, (_, k) =>
  finish(mix(mix(seed(20), k >> 1), k & 1)),
);
const FLAG_BEFORE = Int32Array.from({ length: FLAG_BITS }, (_, b) => finish(mix(seed(21), b)));
const FLAG_AFTER = Int32Array.from({ length: FLAG_BITS }, (_, b) => finish(mix(seed(22), b)));
const LENGTHS = Int32Array.from({ length: 13 }, (_, k) => finish(mix(seed(18), k)));

/** Xxxx, dd, X.X: upper, lower, digit and other characters, runs collapsed. */
export function shapeOf(word: string): string {
  let out = "";
  let last = -1;
  for (let i = 0; i < word.length && out.length < 8; i++) {
    const c = shapeClass(word, i);
    if (c !== last) out += String.fromCharCode(c);
    last = c;
  }
  return out;
}

/** The FNV-1a hash of shapeOf(word), without building the string. */
function shapeHash(word: string): number {
  let h = 0x811c9dc5;
  let last = -1;
  for (let i = 0, len = 0; i < word.length && len < 8; i++) {
    const c = shapeClass(word, i);
    if (c !== last) {
      h = Math.imul(h ^ c, 0x01000193);
      len++;
    }
    last = c;
  }
  return h | 0;
}

const X = 88;
const x = 120;
const D = 100;

// The class of every UTF-16 code unit, filled in on first sight (0: not yet known).
const CLASSES = new Int32Array(0x10000);

// Called for every character of every token: a table lookup, not a Unicode regex per character.
function shapeClass(word: string, i: number): number {
  const code = word.charCodeAt(i);
  if (code >= 65 && code <= 90) return X;
  if (code >= 97 && code <= 122) return x;
  if (code >= 48 && code <= 57) return D;
  if (code < 128) return code;
  let c = CLASSES[code] as number;
  if (c === 0) {
    const ch = word[i] as string;
    c = /\p{Lu}/u.test(ch) ? X : /\p{L}/u.test(ch) ? x : /\d/.test(ch) ? D : code;
    CLASSES[code] = c;
  }
  return c;
}

/** . ! ? ; : " “ ” | • as a whole token: the next token starts a sentence. */
function endsSentence(token: string): boolean {
  if (token.length !== 1) return false;
  const c = token.charCodeAt(0);
  return (
    c === 46 ||
    c === 33 ||
    c === 63 ||
    c === 59 ||
    c === 58 ||
    c === 34 ||
    c === 0x201c ||
    c === 0x201d ||
    c === 124 ||
    c === 0x2022
  );
}

function hasUpper(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
    if (c >= 128) return /\p{Lu}/u.test(text);
  }
  return false;
}

export function createFeaturizer(lexicon: Lexicon): Featurizer {
  const lower: string[] = [];
  let capacity = 0;
  let rowCapacity = 0;
  // Per-token hashes, offset by 2 so the ±2 neighbours of any token need no bounds checks.
  let words = new Int32Array(0);
  let written = new Int32Array(0);
  let shapes = new Int32Array(0);
  let flags = new Int32Array(0);
  let sentenceStarts = new Uint8Array(0);
  let count = 0;
  let caseless = 0;
  const parts = new Int32Array(FLAGS_LOW + 1);
  const state: Featurizer = {
    rows: new Int32Array(0),
    counts: new Int32Array(0),
    shapeKeys: new Int32Array(0),
    prepare(text, tokens) {
      state.prepareTokens(text, tokens);
      if (rowCapacity < count) {
        rowCapacity = Math.max(256, count * 2);
        state.rows = new Int32Array(rowCapacity * MAX_FEATURES);
        state.counts = new Int32Array(rowCapacity);
      }
      for (let i = 0; i < count; i++) state.counts[i] = fill(i, state.rows, i * MAX_FEATURES);
    },
    prepareTokens(text, tokens) {
      const n = tokens.count;
      count = n;
      if (capacity < n) grow(Math.max(256, n * 2));
      const texts = tokens.texts;
      for (let i = 0; i < n; i++) {
        const t = texts[i] as string;
        const w = t.toLowerCase();
        lower[i] = w;
        const h = hashString(w);
        words[i + 2] = h;
        written[i + 2] = w === t ? h : hashString(t);
        const s = shapeHash(t);
        shapes[i + 2] = s;
        state.shapeKeys[i] = s & 0xffff;
        sentenceStarts[i] = i === 0 || endsSentence(texts[i - 1] as string) ? 1 : 0;
      }
      words[n + 2] = END;
      words[n + 3] = END;
      shapes[n + 2] = END;
      shapes[n + 3] = END;
      lower.length = n;
      lexiconFlags(lexicon, tokens, lower, flags);
      // In text with no capitals at all, capitalisation says nothing: say so to every token.
      caseless = hasUpper(text) ? 0 : 1;
    },
    featuresOf(i, out) {
      return fill(i, out, 0);
    },
  };

  function grow(size: number): void {
    capacity = size;
    state.shapeKeys = new Int32Array(size);
    flags = new Int32Array(size);
    sentenceStarts = new Uint8Array(size);
    words = new Int32Array(size + 4);
    written = new Int32Array(size + 4);
    shapes = new Int32Array(size + 4);
    words[0] = words[1] = shapes[0] = shapes[1] = PAD;
  }

  /** Writes token i's features into rows[offset ...]; returns how many. */
  function fill(i: number, rows: Int32Array, offset: number): number {
    const w = lower[i] as string;
    const p = i + 2;
    const here = flags[i] as number;
    parts[WORD] = words[p] as number;
    parts[WRITTEN] = written[p] as number;
    parts[SHAPE] = shapes[p] as number;
    parts[SHAPE_PREV] = shapes[p - 1] as number;
    parts[SHAPE_NEXT] = shapes[p + 1] as number;
    parts[SHAPE_PREV2] = shapes[p - 2] as number;
    parts[SHAPE_NEXT2] = shapes[p + 2] as number;
    parts[PREV] = words[p - 1] as number;
    parts[NEXT] = words[p + 1] as number;
    parts[PREV2] = words[p - 2] as number;
    parts[NEXT2] = words[p + 2] as number;
    parts[START_CASE] = (sentenceStarts[i] as number) * 2 + caseless;
    parts[FLAGS_LOW] = here & 0xff;
    let c = offset;
    rows[c++] = BIAS;
    c = hashTemplates(HEAD, parts, rows, c);
    // Prefixes and suffixes of 1–4 characters, hashed as they grow.
    let prefix = 0x811c9dc5;
    let suffix = 0x811c9dc5;
    for (let k = 1; k <= 4 && k <= w.length; k++) {
      prefix = Math.imul(prefix ^ w.charCodeAt(k - 1), 0x01000193);
      suffix = Math.imul(suffix ^ w.charCodeAt(w.length - k), 0x01000193);
      rows[c++] = finish(mix(mix(seed(3), k), prefix));
      rows[c++] = finish(mix(mix(seed(4), k), suffix));
    }
    c = hashTemplates(BODY, parts, rows, c);
    rows[c++] = LENGTHS[Math.min(w.length, 12)] as number;
    const before = i > 0 ? (flags[i - 1] as number) : 0;
    const after = i + 1 < count ? (flags[i + 1] as number) : 0;
    for (let bits = here; bits !== 0; bits &= bits - 1) {
      rows[c++] = FLAG_HERE[(31 - Math.clz32(bits & -bits)) * 2 + caseless] as number;
    }
    for (let bits = before; bits !== 0; bits &= bits - 1) {
      rows[c++] = FLAG_BEFORE[31 - Math.clz32(bits & -bits)] as number;
    }
    for (let bits = after; bits !== 0; bits &= bits - 1) {
      rows[c++] = FLAG_AFTER[31 - Math.clz32(bits & -bits)] as number;
    }
    c = hashTemplates(TAIL, parts, rows, c);
    return c - offset;
  }
  return state;
}
