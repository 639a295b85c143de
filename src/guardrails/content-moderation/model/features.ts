import { FNV_PRIME, fmix32, fnv1a } from "../../../text/hash.js";
import { HashCounts } from "../../../text/hash-counts.js";

/**
 * Hashed bag of word unigrams, word bigrams and character 3–5-grams of each word (fastText-style,
 * with `<` `>` boundary marks), L2-normalised so a long response and a short one weigh the same:
 * the length of a text must not decide whether it is unsafe.
 * Hashes are full 32-bit values; each weight table masks them to its own size.
 * Bump FEATURE_VERSION whenever anything here changes the hashes: the weights depend on it.
 */
export const FEATURE_VERSION = 1;

export interface Features {
  readonly hashes: Uint32Array;
  readonly values: Float32Array;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
// A pathological "word" (200k letters, base64) costs nothing beyond its first characters.
const MAX_WORD = 24;
const UNIGRAM = 1;
const BIGRAM = 2;
const CHARGRAM = 3;

/** Lower-cased NFKC words, each cut to MAX_WORD characters. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    out.push(m[0].length > MAX_WORD ? m[0].slice(0, MAX_WORD) : m[0].replace("’", "'"));
  }
  return out;
}

export function featurize(tokens: readonly string[]): Features {
  // At most: a unigram and a bigram per word, and its marked form's 3-, 4- and 5-grams.
  let most = 0;
  for (const word of tokens) {
    most += 2;
    for (let n = 3; n <= 5; n++) most += Math.max(0, word.length + 3 - n);
  }
  const counts = new HashCounts(most);
  const bump = (h: number) => counts.bump(h);
  let previous = 0;
  for (const word of tokens) {
    const unigram = fnv1a(UNIGRAM, word, 0, word.length);
    bump(fmix32(unigram));
    if (previous !== 0) bump(fmix32(Math.imul(previous ^ BIGRAM, FNV_PRIME) ^ unigram));
    previous = unigram;
    const marked = `<${word}>`;
    for (let n = 3; n <= 5; n++) {
      for (let i = 0; i + n <= marked.length; i++) bump(fmix32(fnv1a(CHARGRAM + n, marked, i, i + n)));
    }
  }
  const hashes = counts.keys.slice(0, counts.size);
  const values = new Float32Array(counts.size);
  let norm = 0;
  for (let k = 0; k < counts.size; k++) {
    // Sublinear counts: a word repeated ten times is stronger evidence, not ten times stronger.
    const v = 1 + Math.log(counts.counts[k] as number);
    values[k] = v;
    norm += v * v;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) * scale;
  return { hashes, values };
}
