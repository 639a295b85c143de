/**
 * A seeded generator of integers in [0, n): mulberry32
 * (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c), so benches replay
 * the same inputs run after run.
 */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed | 0;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}
