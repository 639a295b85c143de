/** The moderation training rows, and the keyed splitting and de-duplication they go through. */
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";

/** One labelled text. `group` keeps related rows on one side of a split (a GPTFuzz question). */
export interface Example {
  readonly text: string;
  /** 1 = unsafe (complies with a harmful request, or is toxic); undefined for category-only rows. */
  readonly label?: 0 | 1;
  readonly category?: ModerationCategory;
  readonly source: string;
  readonly group?: string;
  /**
   * Which unsafe signal a label-1 row teaches: toxic text people write, or a response that carries
   * out a harmful request. Safe rows (label 0) are negatives for both.
   */
  readonly signal?: Signal;
  /** A row's weight relative to others of its source (a lexicon entry's severity). */
  readonly weight?: number;
}

export const SIGNALS = ["toxic", "compliance"] as const;
export type Signal = (typeof SIGNALS)[number];

/** A stable bucket in [0, 1) for a key (FNV-1a): splits that do not depend on row order. */
export function bucket(key: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

/** Drops exact duplicates (after lower-casing and collapsing whitespace), keeping the first. */
export function dedupe<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((x) => {
    const key = x.text.toLowerCase().replace(/\s+/g, " ").trim();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
