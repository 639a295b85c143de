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
 * The highest score one of the `scored` guardrails (`scoredGuardrails`) gave the row: rule verdicts
 * are 0/1, not scores.
 */
export function maxScore(result: RowResult, scored: Iterable<GuardrailId>): number | null {
  let max: number | null = null;
  for (const id of scored) {
    const g = result.guardrails[id];
    if (g?.score != null && (max === null || g.score > max)) max = g.score;
  }
  return max;
}

export function exampleOf(row: EvalRow, result: RowResult, scored: Iterable<GuardrailId>): RowExample {
  return {
    row: row.row,
    line: row.line,
    id: row.id,
    text: row.text.length > 300 ? `${row.text.slice(0, 299)}…` : row.text,
    category: row.category,
    score: maxScore(result, scored),
    guardrails: Object.entries(result.guardrails)
      .filter(([, g]) => g?.flagged)
      .map(([id]) => id as RowExample["guardrails"][number]),
  };
}
