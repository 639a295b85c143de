/** One way of asking a server whether a change has reached it: true once it answers the new way. */
export type Probe = (url: string) => Promise<boolean>;

/**
 * Asks every server with `probe` until each has answered the new way, then keeps asking for
 * `settleMs` to prove none goes back (a replica that flips must stay flipped). Resolves with the
 * consistency window: milliseconds from `since` until the last server's first new answer.
 */
export async function timeToFlip(
  urls: readonly string[],
  probe: Probe,
  since: number,
  { timeoutMs = 10_000, settleMs = 500 } = {},
): Promise<number> {
  const flipped = await Promise.all(
    urls.map(async (url) => {
      for (;;) {
        if (await probe(url)) return performance.now();
        if (performance.now() - since > timeoutMs) throw new Error(`${url} never took the change`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  const settled = performance.now() + settleMs;
  while (performance.now() < settled) {
    for (const url of urls) {
      if (!(await probe(url))) throw new Error(`${url} went back to the old answer after taking the change`);
    }
  }
  return Math.max(...flipped) - since;
}
