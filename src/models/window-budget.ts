/**
 * Which windows of a long text a model reads when it cannot afford them all. A window is a
 * sentence window of the text (see src/text/windows.ts); a model reads at most a budget of them
 * per request, and past it a cheap score picks the ones most worth reading.
 */
export interface BudgetedWindow {
  readonly text: string;
}

/**
 * Scores windows cheaply (higher: more worth reading), in the order given. The llm guardrail's
 * n-grams are one (Detector.triage).
 */
export type Triage = (texts: readonly string[]) => ArrayLike<number>;

/**
 * All windows within `budget`; past it the `budget` best by `triage` (ties to the earlier window),
 * or without a triage windows spread evenly from the first to the last. Returned in text order,
 * with the rest as `skipped`.
 */
export function selectWindows<W extends BudgetedWindow>(
  windows: readonly W[],
  budget: number,
  triage?: Triage,
): { chosen: W[]; skipped: W[] } {
  if (windows.length <= budget) return { chosen: [...windows], skipped: [] };
  const keep = new Uint8Array(windows.length);
  if (triage) {
    const scores = triage(windows.map((w) => w.text));
    const order = windows.map((_, i) => i);
    order.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
    for (const i of order.slice(0, budget)) keep[i] = 1;
  } else if (budget === 1) {
    keep[0] = 1;
  } else {
    for (let k = 0; k < budget; k++) keep[Math.round((k * (windows.length - 1)) / (budget - 1))] = 1;
  }
  const chosen: W[] = [];
  const skipped: W[] = [];
  windows.forEach((w, i) => {
    (keep[i] ? chosen : skipped).push(w);
  });
  return { chosen, skipped };
}
