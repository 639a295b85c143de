/**
 * FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/) over feature parts, so a feature becomes a
 * weight-table row without building the feature's string.
 */
const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/** Starts a feature hash from its template number. */
export function begin(template: number): number {
  return Math.imul(OFFSET ^ template, PRIME) >>> 0;
}

/** Adds a string part (and a separator, so "ab"+"c" differs from "a"+"bc"). */
export function add(h: number, s: string): number {
  let x = h;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), PRIME);
  return Math.imul(x ^ 0x1f, PRIME) >>> 0;
}

/** Adds a small integer part (a tag, a flag). */
export function addInt(h: number, n: number): number {
  return Math.imul(h ^ (n + 0x100), PRIME) >>> 0;
}

/** Final avalanche (murmur3 fmix32) so the low bits used as a row index are well mixed. */
export { fmix32 as finish } from "../../../text/hash.js";

/** FNV-1a of a whole string, no separator: a token's hash, computed once per message. */
export function hashString(s: string): number {
  let x = OFFSET;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), PRIME);
  return x | 0;
}

/**
 * Mixes a 32-bit part (a token's hash, a small integer) into a feature hash: the murmur3 block
 * step, so features are built from per-token hashes without re-reading any string.
 */
export function mix(h: number, v: number): number {
  let k = Math.imul(v, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let x = h ^ k;
  x = (x << 13) | (x >>> 19);
  return (Math.imul(x, 5) + 0xe6546b64) | 0;
}
