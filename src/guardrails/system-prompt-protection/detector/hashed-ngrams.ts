import { foldText } from "../../../text/normalize.js";

// Words plus the colon and quote marks: "my instructions are:" and an opening quote are part of
// how a disclosure looks.
const TOKEN = /[\p{L}\p{N}]+|[:"“”«»]/gu;
const WINDOW = 48;
const STRIDE = 24;

/** FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/) with a murmur3 finaliser for the low bits. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function ngramTokens(text: string): string[] {
  return foldText(text).match(TOKEN) ?? [];
}

/** A sparse, L2-normalised bag of hashed 1–3-grams: equal weight for a short and a long text. */
export interface SparseVector {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

export function featurize(tokens: readonly string[], bits: number): SparseVector {
  const mask = (1 << bits) - 1;
  const counts = new Map<number, number>();
  const bump = (key: string) => {
    const h = hash(key) & mask;
    counts.set(h, (counts.get(h) ?? 0) + 1);
  };
  for (let i = 0; i < tokens.length; i++) {
    bump(`1 ${tokens[i]}`);
    if (i + 1 < tokens.length) bump(`2 ${tokens[i]} ${tokens[i + 1]}`);
    if (i + 2 < tokens.length) bump(`3 ${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`);
  }
  let norm = 0;
  for (const c of counts.values()) norm += c * c;
  const scale = norm ? 1 / Math.sqrt(norm) : 0;
  const index = Int32Array.from(counts.keys());
  const value = Float32Array.from(counts.values(), (c) => c * scale);
  return { index, value };
}

/**
 * The whole text and its overlapping 48-token windows: a disclosure spliced into a long, normal
 * answer is diluted in the whole-text vector but dominates its window.
 */
export function windows(tokens: readonly string[]): string[][] {
  if (tokens.length <= WINDOW) return [];
  const out: string[][] = [];
  for (let i = 0; i < tokens.length; i += STRIDE) {
    out.push(tokens.slice(i, i + WINDOW));
    if (i + WINDOW >= tokens.length) break;
  }
  return out;
}
