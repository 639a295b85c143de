import { hashPair, hashPrefixes, hashRange } from "../../../text/hash.js";

/** A sparse feature vector: sorted unique bucket indices and their values. */
export interface SparseVector {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

// Family seeds keep a word "ign" and the character trigram "ign" in different buckets.
const WORD = 1;
const BIGRAM = 2;
const CHAR = 3;
const MIN_CHAR = 3;
const MAX_CHAR = 5;
const WORD_PATTERN = /[\p{L}\p{N}]+/gu;

/** Words of a folded text: runs of letters and digits (punctuation is left to the char n-grams). */
export function words(folded: string): string[] {
  return folded.match(WORD_PATTERN) ?? [];
}

/**
 * Hashed word 1–2-grams and character 3–5-grams of a folded text (see src/text/normalize.ts),
 * each block weighted 1 + ln(count) and L2-normalised on its own, so a long text and a short one
 * land on the same scale and the words and the characters count equally. Character n-grams cross
 * word boundaries on purpose: "ignore prev" and "{{system" are the signal, not single words.
 * `dim` must be a power of two.
 */
export function featurize(folded: string, dim: number): SparseVector {
  const mask = dim - 1;
  const tokens = words(folded);
  const wordHashes = new Int32Array(tokens.length * 2);
  let w = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    wordHashes[w++] = hashRange(WORD, token, 0, token.length) & mask;
    if (i > 0) wordHashes[w++] = hashPair(BIGRAM, tokens[i - 1] as string, token) & mask;
  }
  const padded = ` ${folded} `;
  const grams = Math.max(0, padded.length - MIN_CHAR + 1) * (MAX_CHAR - MIN_CHAR + 1);
  const charHashes = new Int32Array(grams);
  let c = 0;
  for (let i = 0; i + MIN_CHAR <= padded.length; i++) {
    c = hashPrefixes(CHAR, padded, i, MIN_CHAR, MAX_CHAR, mask, charHashes, c);
  }
  return merge(block(wordHashes.subarray(0, w)), block(charHashes.subarray(0, c)));
}

interface Block {
  index: Int32Array;
  value: Float64Array;
}

/** Counts repeated buckets (after sorting) and L2-normalises 1 + ln(count), scaled by 1/√2. */
function block(hashes: Int32Array): Block {
  hashes.sort();
  const index = new Int32Array(hashes.length);
  const value = new Float64Array(hashes.length);
  let n = 0;
  for (let i = 0; i < hashes.length; ) {
    let j = i + 1;
    while (j < hashes.length && hashes[j] === hashes[i]) j++;
    index[n] = hashes[i] as number;
    value[n++] = 1 + Math.log(j - i);
    i = j;
  }
  let norm = 0;
  for (let i = 0; i < n; i++) norm += (value[i] as number) ** 2;
  const scale = norm > 0 ? Math.SQRT1_2 / Math.sqrt(norm) : 0;
  for (let i = 0; i < n; i++) value[i] = (value[i] as number) * scale;
  return { index: index.subarray(0, n), value: value.subarray(0, n) };
}

/** Merges two sorted blocks; a bucket shared by a word and a char n-gram gets both values. */
function merge(a: Block, b: Block): SparseVector {
  const index = new Int32Array(a.index.length + b.index.length);
  const value = new Float32Array(index.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.index.length || j < b.index.length) {
    const ai = i < a.index.length ? (a.index[i] as number) : Number.MAX_SAFE_INTEGER;
    const bj = j < b.index.length ? (b.index[j] as number) : Number.MAX_SAFE_INTEGER;
    index[n] = Math.min(ai, bj);
    let v = 0;
    if (ai <= bj) v += a.value[i++] as number;
    if (bj <= ai) v += b.value[j++] as number;
    value[n++] = v;
  }
  return { index: index.subarray(0, n), value: value.subarray(0, n) };
}
