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

export { mulberry32 as createRng, shuffle } from "../lib/random.js";

export function pick<T>(items: readonly T[], rng: () => number): T {
  return items[Math.floor(rng() * items.length)] as T;
}
