/**
 * Feature hashing shared by the trained classifiers: FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/)
 * seeded per feature family, and the murmur3 fmix32 avalanche
 * (https://github.com/aappleby/smhasher/blob/master/src/MurmurHash3.cpp) so the low bits used as a
 * bucket are well mixed. Training and inference both call these and the shipped weights index by
 * their values: any change here invalidates every model (test/text/hash.test.ts pins them).
 */
const OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

function fold(h: number, text: string, start: number, end: number): number {
  let x = h;
  for (let i = start; i < end; i++) x = Math.imul(x ^ text.charCodeAt(i), FNV_PRIME);
  return x;
}

/** Plain FNV-1a of `text[start, end)` under a family seed, before the avalanche (unsigned). */
export function fnv1a(family: number, text: string, start: number, end: number): number {
  return fold(Math.imul(OFFSET ^ family, FNV_PRIME), text, start, end) >>> 0;
}

/** murmur3 fmix32 (unsigned). */
export function fmix32(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hashes `text[start, end)` under a family seed, without building the substring. */
export function hashRange(family: number, text: string, start: number, end: number): number {
  return fmix32(fnv1a(family, text, start, end));
}

/**
 * `hashRange(family, text, start, start + n) & mask` for n = min…max (while the text lasts), written
 * to `out` from `at`; returns where the next value goes. FNV-1a reads left to right, so each
 * length's state is the shorter one's plus a character: one pass instead of one per length.
 */
export function hashPrefixes(
  family: number,
  text: string,
  start: number,
  min: number,
  max: number,
  mask: number,
  out: Int32Array,
  at: number,
): number {
  let x = Math.imul(OFFSET ^ family, FNV_PRIME);
  let next = at;
  const end = Math.min(text.length, start + max);
  for (let i = start; i < end; i++) {
    x = Math.imul(x ^ text.charCodeAt(i), FNV_PRIME);
    if (i + 1 - start >= min) out[next++] = fmix32(x >>> 0) & mask;
  }
  return next;
}

/** Hashes two words as one bigram: the separator keeps "ab"+"c" apart from "a"+"bc". */
export function hashPair(family: number, a: string, b: string): number {
  const h = Math.imul(fnv1a(family, a, 0, a.length) ^ 0x1f, FNV_PRIME);
  return fmix32(fold(h, b, 0, b.length));
}
