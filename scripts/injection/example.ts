/**
 * One labelled text of the injection training pool.
 * - `source`: the data set it came from (per-source metrics and hold-outs use it).
 * - `group`: its template family; a group never straddles the train / calibration / test split.
 * - `key`: the text near-duplicate removal compares (the template, for filled-in templates).
 * - `kind`: the slice it is reported in (hard negatives, long documents, indirect injection).
 * - `payload`: for an injection planted in a document, the planted text, so training knows which
 *   sentence windows hold it.
 */
export interface Example {
  text: string;
  label: 0 | 1;
  source: string;
  group: string;
  key: string;
  kind: Kind;
  payload?: string;
}

export type Kind = "prompt" | "hard" | "long" | "indirect" | "harmful-plain";

export function example(
  text: string,
  label: 0 | 1,
  source: string,
  group: string,
  kind: Kind = "prompt",
  key = text,
): Example {
  return { text, label, source, group, key, kind };
}

/** A deterministic PRNG (mulberry32) so sampling and shuffling are the same on every run. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], rng: () => number): T {
  return items[Math.floor(rng() * items.length)] as T;
}

export function shuffle<T>(items: T[], rng: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
