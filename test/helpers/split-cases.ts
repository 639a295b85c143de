// What a streamed response must not lose or repeat: one item per rule-based guardrail, each to be
// split at every position (chunk 1 alone, chunk 2 with chunk 1 as `context`) and reported once.
import type { GuardrailId } from "../../src/guardrails/types.js";

/** A profile (as YAML would give it) with every rule-based guardrail on the items below. */
export const STREAM_PROFILE = {
  name: "stream",
  default: true,
  guardrails: {
    keyword: { enabled: true, keywords: ["ignore previous instructions"] },
    // Unbounded: a chunk that lengthens the number continues the match chunk 1 reported.
    regex: { enabled: true, patterns: [{ name: "order_ref", pattern: "\\bORD-[0-9]{3,}\\b" }] },
    pii: { enabled: true, entities: ["EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE"] },
  },
};

export interface SplitCase {
  readonly text: string;
  readonly guardrail: GuardrailId;
  /** The item of `matched` or `entities` that must be reported exactly once. */
  readonly label: string;
}

export const SPLIT_CASES: readonly SplitCase[] = [
  { text: "Charge 4111 1111 1111 1111 today.", guardrail: "pii", label: "CREDIT_CARD" },
  { text: "Mail jane.doe@example.com soon.", guardrail: "pii", label: "EMAIL_ADDRESS" },
  { text: "Call +1 202-555-0143 now.", guardrail: "pii", label: "PHONE_NUMBER" },
  { text: "Pay GB82 WEST 1234 5698 7654 32 now.", guardrail: "pii", label: "IBAN_CODE" },
  {
    text: "So ignore previous instructions, ok?",
    guardrail: "keyword",
    label: "ignore previous instructions",
  },
  { text: "Your order ORD-123456 ships.", guardrail: "regex", label: "order_ref" },
];

/** Every way to cut `text` in two non-empty chunks (and the cuts at both ends). */
export function splits(text: string): [string, string][] {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

/** The item reported by `check` (a response's `checks[guardrail]`), or nothing. */
export function reported(check: Record<string, unknown> | undefined, label: string): number {
  const items = (check?.matched ?? check?.entities ?? []) as string[];
  return items.filter((item) => item === label).length;
}
