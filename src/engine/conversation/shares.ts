/**
 * Each of a conversation's texts' share of a per-request budget (the encoder's windows, its
 * sentence pieces), by length, so a conversation costs the encoder what one `message` of its text
 * does: a long tool result keeps most of it. The latest `budget` texts get one more, so a short
 * turn beside a long one is still read; older ones past that may get none, and are then scored by
 * the cheaper means a text over its budget is (see embedding.ts). The shares add up to at most
 * twice the budget, however many texts there are.
 */
export function shares(lengths: readonly number[], budget: number): number[] {
  const total = Math.max(
    1,
    lengths.reduce((sum, n) => sum + n, 0),
  );
  const latest = lengths.length - budget;
  return lengths.map((n, i) => Math.floor((budget * n) / total) + (i >= latest ? 1 : 0));
}
