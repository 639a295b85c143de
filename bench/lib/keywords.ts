/** Deterministic keywords: mulberry32 (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
export function keywordList(count: number, shape: "phrases" | "random"): string[] {
  let state = 12345;
  const next = (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const word = () => Array.from({ length: 3 + next(8) }, () => String.fromCharCode(97 + next(26))).join("");
  const vocabulary = Array.from({ length: 400 }, word);
  return Array.from({ length: count }, (_, i) =>
    shape === "random"
      ? `${word()} ${word()} ${word()}`
      : [...Array.from({ length: 1 + next(4) }, () => vocabulary[next(400)]), i.toString(36)].join(" "),
  );
}
