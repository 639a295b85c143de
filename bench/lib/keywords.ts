import { seededRandom } from "./random.js";

/**
 * `count` distinct keywords, the same on every run. `phrases`: one to four words of a 400-word
 * vocabulary and a number, so many share prefixes; `random`: three random words of 3–10
 * letters, the largest trie for their length.
 */
export function keywordList(count: number, shape: "phrases" | "random"): string[] {
  const next = seededRandom(12345);
  const word = () => Array.from({ length: 3 + next(8) }, () => String.fromCharCode(97 + next(26))).join("");
  const vocabulary = Array.from({ length: 400 }, word);
  return Array.from({ length: count }, (_, i) =>
    shape === "random"
      ? `${word()} ${word()} ${word()}`
      : [...Array.from({ length: 1 + next(4) }, () => vocabulary[next(400)]), i.toString(36)].join(" "),
  );
}
