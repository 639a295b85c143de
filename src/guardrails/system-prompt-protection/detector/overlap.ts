import { shingle, words } from "./tokens.js";

/** The configured system prompt, shingled once when the detector is built. */
export interface OverlapIndex {
  readonly three: ReadonlySet<string>;
  readonly five: ReadonlySet<string>;
}

export function indexPrompt(systemPrompt: string): OverlapIndex {
  const tokens = words(systemPrompt);
  const three = new Set<string>();
  const five = new Set<string>();
  for (let i = 0; i + 3 <= tokens.length; i++) three.add(shingle(tokens, i, 3));
  for (let i = 0; i + 5 <= tokens.length; i++) five.add(shingle(tokens, i, 5));
  return { three, five };
}

/**
 * Verbatim and near-verbatim overlap, each in [0, 1]:
 * - `cover3`, `cover5`: share of the response's 3- and 5-word shingles found in the prompt
 *   (high when the response is mostly quotation, even of a small part of a long prompt);
 * - `run`: longest run of consecutive matching 3-grams, in words, log-scaled (one long quote);
 * - `reach`: how many distinct prompt 5-grams the response contains, log-scaled (a quote of a
 *   long prompt spread over an answer, where the cover ratios are diluted);
 * - `contain`: share of the prompt's 5-grams present (the whole prompt, re-formatted).
 */
export function overlapParts(index: OverlapIndex, responseTokens: readonly string[]): Record<string, number> {
  let hit3 = 0;
  let run = 0;
  let best = 0;
  const n3 = Math.max(0, responseTokens.length - 2);
  for (let i = 0; i < n3; i++) {
    if (index.three.has(shingle(responseTokens, i, 3))) {
      hit3++;
      run++;
      best = Math.max(best, run);
    } else run = 0;
  }
  const seen = new Set<string>();
  let hit5 = 0;
  const n5 = Math.max(0, responseTokens.length - 4);
  for (let i = 0; i < n5; i++) {
    const key = shingle(responseTokens, i, 5);
    if (!index.five.has(key)) continue;
    hit5++;
    seen.add(key);
  }
  const runWords = best > 0 ? best + 2 : 0;
  return {
    cover3: n3 ? hit3 / n3 : 0,
    cover5: n5 ? hit5 / n5 : 0,
    run: Math.min(1, Math.log1p(runWords) / Math.log(65)),
    reach: Math.min(1, Math.log1p(seen.size) / Math.log(101)),
    contain: index.five.size ? seen.size / index.five.size : 0,
  };
}
