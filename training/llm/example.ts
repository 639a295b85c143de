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

/**
 * Whether an app would hand this text to the model as data (a retrieved document, an e-mail, a
 * tool result) rather than as a request: the pool's documents, with or without a planted payload.
 */
export const isData = (e: Example): boolean => e.kind === "long" || e.kind === "indirect";

/** The MLP's data input for `e` as the app would send it; undefined for a model without the input. */
export const dataInputOf = (e: Example, dataInput: boolean | undefined): 0 | 1 | undefined =>
  dataInput ? (isData(e) ? 1 : 0) : undefined;

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
