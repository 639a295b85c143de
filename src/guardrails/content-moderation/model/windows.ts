import { SENTENCE_BREAK } from "../../../text/sentences.js";
import { words } from "./features.js";

/**
 * Sentence windows of a long response, as word lists. A harmful paragraph inside a long, mostly
 * harmless answer is diluted in the whole-text features; scored on its own window it still counts.
 * Sentences are packed up to `maxWords`, consecutive windows share one sentence, and a sentence
 * longer than `maxWords` is cut into word chunks. A text that fits in one window has no windows
 * beyond the whole text, which is always scored. Sentences end at SENTENCE_BREAK: punctuation
 * alone carries the split, as the engine may hand over text with newlines collapsed.
 */
export const DEFAULT_WINDOW_WORDS = 40;

export interface Units {
  readonly whole: string[];
  readonly windows: string[][];
}

export function splitUnits(text: string, maxWords = DEFAULT_WINDOW_WORDS): Units {
  const whole = words(text);
  if (whole.length <= maxWords) return { whole, windows: [] };
  const sentences: string[][] = [];
  for (const part of text.split(SENTENCE_BREAK)) {
    const w = words(part);
    for (let i = 0; i < w.length; i += maxWords) sentences.push(w.slice(i, i + maxWords));
  }
  const windows: string[][] = [];
  for (let i = 0; i < sentences.length; ) {
    let j = i;
    let size = sentences[i]?.length ?? 0;
    while (j + 1 < sentences.length && size + (sentences[j + 1]?.length ?? 0) <= maxWords) {
      j++;
      size += sentences[j]?.length ?? 0;
    }
    windows.push(sentences.slice(i, j + 1).flat());
    if (j === sentences.length - 1) break;
    i = j > i ? j : j + 1;
  }
  return { whole, windows };
}
