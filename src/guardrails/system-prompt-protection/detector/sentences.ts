import { words } from "./tokens.js";

// Sentence ends, line breaks and list bullets: system prompts are mostly lists and short lines.
const BREAK = /(?<=[.!?。！？])\s+|\n+|\s[-*•]\s/u;
const MARKUP = /^[\s#>*\-•`|_\d.)(]+|[\s*`_|]+$/gu;
const MAX_WORDS = 40;

/**
 * Splits text into sentence-sized pieces for the sentence encoder: pieces under three words are
 * dropped (headings, bullets' numbers), and long ones are cut into ≤ 40-word windows because the
 * encoder reads only its first 128 tokens and a mean over a long text blurs a leaked rule.
 */
export function sentences(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  for (const raw of text.split(BREAK)) {
    const piece = raw.replace(MARKUP, "").trim();
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
