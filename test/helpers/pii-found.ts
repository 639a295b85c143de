import { detectPii } from "../../src/guardrails/pii/index.js";

/**
 * What the whole detector (every entity on, overlaps resolved) reports of the given types, as
 * "TYPE:matched text" in text order. Other types are left out so a case about one recogniser does
 * not move when the name tagger reads a word differently.
 */
export function piiFound(text: string, ...labels: string[]): string[] {
  return detectPii(text)
    .filter((s) => labels.includes(s.label))
    .map((s) => `${s.label}:${text.slice(s.start, s.end)}`);
}
