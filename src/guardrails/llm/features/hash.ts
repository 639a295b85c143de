/**
 * Feature hashing for the injection classifier: FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/)
 * seeded per feature family, then a murmur3 fmix32 avalanche so the low bits used as a bucket are
 * well mixed. Training and inference both call these, so a bucket means the same n-gram in both.
 */
const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/** Hashes `text[start, end)` under a family seed, without building the substring. */
export function hashRange(family: number, text: string, start: number, end: number): number {
  let h = Math.imul(OFFSET ^ family, PRIME);
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), PRIME);
  return fmix(h);
}

/** Hashes two words as one bigram: the separator keeps "ab"+"c" apart from "a"+"bc". */
export function hashPair(family: number, a: string, b: string): number {
  let h = Math.imul(OFFSET ^ family, PRIME);
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a.charCodeAt(i), PRIME);
  h = Math.imul(h ^ 0x1f, PRIME);
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b.charCodeAt(i), PRIME);
  return fmix(h);
}

function fmix(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
