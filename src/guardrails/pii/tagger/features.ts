import type { Lexicon } from "../lexicon.js";
import { add, addInt, begin, finish } from "./hash.js";
import { FLAG_BITS, lexiconFlags } from "./lexicon-flags.js";
import type { TaggerTokens } from "./tokenize.js";

/** Upper bound on the static features of one token (the templates below stay well under it). */
export const MAX_FEATURES = 64;
/** Features that depend on the tags already chosen; computed during decoding. */
export const TRANSITION_FEATURES = 3;

/**
 * Per-message feature state. `rows` holds, for token i, MAX_FEATURES hashed features (unmasked;
 * the model masks them to its table size) in rows[i * MAX_FEATURES ...], `counts[i]` of them used.
 */
export interface Featurizer {
  prepare(text: string, tokens: TaggerTokens): void;
  rows: Int32Array;
  counts: Int32Array;
  /** A hash of each token's shape, for the tag-history features. */
  shapeKeys: Int32Array;
}

/** The three tag-history features of a token given the two previous tags and its shape key. */
export function transitionRows(previous: number, previous2: number, shapeKey: number, out: Int32Array): void {
  out[0] = finish(addInt(begin(90), previous));
  out[1] = finish(addInt(addInt(begin(91), previous), previous2));
  out[2] = finish(addInt(addInt(begin(92), previous), shapeKey));
}

const PAD = "<s>";
const END = "</s>";
const SENTENCE_END = /^[.!?;:\n"“”|•]$/;

/** Xxxx, dd, X.X: upper, lower, digit and other characters, runs collapsed. */
export function shapeOf(word: string): string {
  let out = "";
  let last = "";
  for (let i = 0; i < word.length && out.length < 8; i++) {
    const ch = word[i] as string;
    const c = /\p{Lu}/u.test(ch) ? "X" : /\p{L}/u.test(ch) ? "x" : /\d/.test(ch) ? "d" : ch;
    if (c !== last) out += c;
    last = c;
  }
  return out;
}

export function createFeaturizer(lexicon: Lexicon): Featurizer {
  let lower: string[] = [];
  let shapes: string[] = [];
  let flags = new Int32Array(256);
  const state: Featurizer = {
    rows: new Int32Array(256 * MAX_FEATURES),
    counts: new Int32Array(256),
    shapeKeys: new Int32Array(256),
    prepare(text, tokens) {
      const n = tokens.count;
      if (state.counts.length < n) {
        state.rows = new Int32Array(n * 2 * MAX_FEATURES);
        state.counts = new Int32Array(n * 2);
        state.shapeKeys = new Int32Array(n * 2);
        flags = new Int32Array(n * 2);
      }
      lower = tokens.texts.map((t) => t.toLowerCase());
      shapes = tokens.texts.map(shapeOf);
      lexiconFlags(lexicon, tokens, lower, flags);
      // In text with no capitals at all, capitalisation says nothing: say so to every token.
      const caseless = !/\p{Lu}/u.test(text) ? 1 : 0;
      for (let i = 0; i < n; i++) {
        fill(i, n, tokens, caseless);
        state.shapeKeys[i] = add(0, shapes[i] as string) & 0xffff;
      }
    },
  };

  function fill(i: number, n: number, tokens: TaggerTokens, caseless: number): void {
    const rows = state.rows;
    let c = i * MAX_FEATURES;
    const push = (h: number) => {
      rows[c++] = finish(h);
    };
    const w = lower[i] as string;
    const word = (k: number) => (k < 0 ? PAD : k >= n ? END : (lower[k] as string));
    const shape = (k: number) => (k < 0 ? PAD : k >= n ? END : (shapes[k] as string));
    const sentenceStart = i === 0 || SENTENCE_END.test(tokens.texts[i - 1] as string) ? 1 : 0;
    push(begin(0));
    push(add(begin(1), w));
    push(add(begin(2), tokens.texts[i] as string));
    for (let k = 1; k <= 4 && k <= w.length; k++) {
      push(add(addInt(begin(3), k), w.slice(0, k)));
      push(add(addInt(begin(4), k), w.slice(-k)));
    }
    push(add(begin(5), shape(i)));
    push(add(begin(6), shape(i - 1)));
    push(add(begin(7), shape(i + 1)));
    push(add(begin(8), shape(i - 2)));
    push(add(begin(9), shape(i + 2)));
    push(add(add(add(begin(10), shape(i - 1)), shape(i)), shape(i + 1)));
    push(add(begin(11), word(i - 1)));
    push(add(begin(12), word(i + 1)));
    push(add(begin(13), word(i - 2)));
    push(add(begin(14), word(i + 2)));
    push(add(add(begin(15), word(i - 1)), w));
    push(add(add(begin(16), w), word(i + 1)));
    push(add(addInt(addInt(begin(17), sentenceStart), caseless), shape(i)));
    push(addInt(begin(18), Math.min(w.length, 12)));
    const here = flags[i] as number;
    const before = i > 0 ? (flags[i - 1] as number) : 0;
    const after = i + 1 < n ? (flags[i + 1] as number) : 0;
    for (let b = 0; b < FLAG_BITS; b++) {
      if (here & (1 << b)) push(addInt(addInt(begin(20), b), caseless));
      if (before & (1 << b)) push(addInt(begin(21), b));
      if (after & (1 << b)) push(addInt(begin(22), b));
    }
    push(addInt(add(begin(23), shape(i)), here & 0xff));
    push(add(add(begin(24), word(i - 2)), word(i - 1)));
    push(add(add(begin(25), word(i + 1)), word(i + 2)));
    state.counts[i] = c - i * MAX_FEATURES;
  }
  return state;
}
