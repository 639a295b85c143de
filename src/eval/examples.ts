import type { GuardrailId } from "../guardrails/types.js";
import type { EvalRow } from "./rows.js";
import type { RowExample, RowResult } from "./summary.js";

/** Keeps the `size` rows that rank highest; O(size) per offer, bounded memory. */
export class TopRows {
  readonly #kept: { rank: number; example: RowExample }[] = [];
  constructor(readonly size: number) {}

  offer(rank: number, make: () => RowExample): void {
    const kept = this.#kept;
    if (kept.length === this.size && rank <= (kept[kept.length - 1]?.rank ?? -Infinity)) return;
    const at = kept.findIndex((k) => rank > k.rank);
    kept.splice(at === -1 ? kept.length : at, 0, { rank, example: make() });
    if (kept.length > this.size) kept.pop();
  }

  list(): RowExample[] {
    return this.#kept.map((k) => k.example);
  }
}

/**
 * The highest score one of the `scored` guardrails (`scoredGuardrails`) gave the row, and whose it
 * is: rule verdicts are 0/1, not scores.
 */
export function maxScore(
  result: RowResult,
  scored: Iterable<GuardrailId>,
): { score: number; guardrail: GuardrailId } | null {
  let max: { score: number; guardrail: GuardrailId } | null = null;
  for (const id of scored) {
    const g = result.guardrails[id];
    if (g?.score != null && (max === null || g.score > max.score)) max = { score: g.score, guardrail: id };
  }
  return max;
}

/** A score as the reports print it: 4 decimals and whose it is, `llm 0.3068`; empty without one. */
export function describeScore(row: Pick<RowExample, "score" | "score_guardrail">): string {
  return row.score === null ? "" : `${row.score_guardrail ?? "score"} ${row.score.toFixed(4)}`;
}

export function exampleOf(row: EvalRow, result: RowResult, scored: Iterable<GuardrailId>): RowExample {
  const top = maxScore(result, scored);
  return {
    row: row.row,
    line: row.line,
    id: row.id,
    text: row.text.length > 300 ? `${row.text.slice(0, 299)}…` : row.text,
    category: row.category,
    score: top?.score ?? null,
    score_guardrail: top?.guardrail ?? null,
    guardrails: Object.entries(result.guardrails)
      .filter(([, g]) => g?.flagged)
      .map(([id]) => id as RowExample["guardrails"][number]),
  };
}
