import { excerpt } from "./excerpt.js";

/**
 * Label normalisation: the spellings data sets use for "should be flagged" and "should pass".
 * An empty cell is an unlabelled row; anything else unknown is an error the caller reports by row.
 */
const POSITIVE = [
  "1",
  "true",
  "yes",
  "y",
  "t",
  "injection",
  "unsafe",
  "flag",
  "flagged",
  "positive",
  "malicious",
  "leak",
];
const NEGATIVE = [
  "0",
  "false",
  "no",
  "n",
  "f",
  "benign",
  "safe",
  "allow",
  "allowed",
  "negative",
  "clean",
  "no_leak",
];

const positive = new Set(POSITIVE);
const negative = new Set(NEGATIVE);

/** The accepted spellings, for error messages. */
export const LABEL_SPELLINGS = "1/0, true/false, yes/no, injection/benign, unsafe/safe, flag/allow";

export type LabelResult = { ok: true; label: boolean | null } | { ok: false; reason: string };

export function normalizeLabel(value: unknown): LabelResult {
  if (value === undefined || value === null) return { ok: true, label: null };
  if (typeof value === "boolean") return { ok: true, label: value };
  if (typeof value === "number") {
    if (value === 1 || value === 0) return { ok: true, label: value === 1 };
    return { ok: false, reason: `unknown label ${value} (expected ${LABEL_SPELLINGS})` };
  }
  if (typeof value !== "string") {
    return {
      ok: false,
      reason: `unknown label ${excerpt(JSON.stringify(value))} (expected ${LABEL_SPELLINGS})`,
    };
  }
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if (key === "") return { ok: true, label: null };
  if (positive.has(key)) return { ok: true, label: true };
  if (negative.has(key)) return { ok: true, label: false };
  return { ok: false, reason: `unknown label "${excerpt(value)}" (expected ${LABEL_SPELLINGS})` };
}
