/**
 * Runners for builders written as generators that `yield` between slices of work: the same
 * build either at once or spread over event-loop turns, so a large keyword list compiled while
 * the server answers requests never holds the loop for more than a few milliseconds.
 */
/** Units of work (pattern characters, trie nodes) a builder does between two yields: ~1 ms. */
export const SLICE = 16_384;

export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs `steps`, letting other callbacks run whenever a slice has taken `budgetMs` or more. */
export async function runStepsInSlices<T>(steps: Generator<void, T>, budgetMs = 5): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= budgetMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
