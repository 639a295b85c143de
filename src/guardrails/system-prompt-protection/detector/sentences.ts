import { words } from "./tokens.js";

// Sentence ends, line breaks and list bullets: system prompts are mostly lists and short lines.
const BREAK = /(?<=[.!?。！？])\s+|\n+|\s[-*•]\s/u;
const LEADING_MARKUP = /^[\s#>*\-•`|_\d.)(]+/u;
// Trailing markup is cut by a loop: `[…]+$` retried from every mark of a long run is quadratic.
const TRAILING_MARK = /[\s*`_|]/u;
const MAX_WORDS = 40;

/**
 * Splits text into sentence-sized pieces for the sentence encoder: pieces under three words are
 * dropped (headings, bullets' numbers), and long ones are cut into ≤ 40-word windows because the
 * encoder reads only its first 128 tokens and a mean over a long text blurs a leaked rule.
 */
export function sentences(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  for (const raw of text.split(BREAK)) {
    const piece = stripTrailingMarkup(raw.replace(LEADING_MARKUP, "")).trim();
    const count = words(piece).length;
    if (count < 3) continue;
    if (count <= MAX_WORDS) out.push(piece);
    else {
      const parts = piece.split(/\s+/);
      for (let i = 0; i < parts.length; i += MAX_WORDS) out.push(parts.slice(i, i + MAX_WORDS).join(" "));
    }
    if (out.length >= limit) return out.slice(0, limit);
  }
  return out;
}

function stripTrailingMarkup(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_MARK.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
