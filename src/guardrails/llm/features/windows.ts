/**
 * Sentence windows of a folded text. A whole-text classifier dilutes an instruction hidden in a
 * long e-mail among hundreds of harmless words; scoring short windows of consecutive sentences
 * and keeping the maximum lets one injected sentence count. Training and inference share this,
 * so the windows a model was trained on are the windows it is asked about.
 */
export const WINDOW_MIN_WORDS = 12;
export const WINDOW_MAX_WORDS = 48;
// Overlap between the chunks a sentence longer than the maximum is cut into.
const CHUNK_OVERLAP = 16;

// A sentence ends at ., !, ? (and their CJK forms), or at a field separator such as "|" that
// flattened documents use; the folded text has no newlines left to split on. A run of marks is
// tried from its first mark only (the lookbehind): tried from each, a run of 100,000 dots that ends
// in no space was rescanned from every dot, 14 s. A match from inside a run is never lost by it,
// since the run's first mark reaches the same end.
const BOUNDARY = /(?<![.!?。！？;|])[.!?。！？;|]+["')\]]*\s+|\s+[-*•]\s+|[|]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

interface Piece {
  start: number;
  end: number;
  words: number;
}

/** Windows of consecutive sentences, each WINDOW_MIN_WORDS–WINDOW_MAX_WORDS words where possible. */
export function sentenceWindows(folded: string): string[] {
  const pieces = splitPieces(folded);
  if (pieces.length <= 1 && (pieces[0]?.words ?? 0) <= WINDOW_MAX_WORDS) return [];
  const windows = new Set<string>();
  for (let i = 0; i < pieces.length; i++) {
    const first = pieces[i] as Piece;
    let end = first.end;
    let count = first.words;
    for (let j = i + 1; j < pieces.length && count < WINDOW_MIN_WORDS; j++) {
      const next = pieces[j] as Piece;
      if (count + next.words > WINDOW_MAX_WORDS) break;
      end = next.end;
      count += next.words;
    }
    const text = folded.slice(first.start, end).trim();
    if (text.length > 0 && text !== folded) windows.add(text);
  }
  return [...windows];
}

/** Sentences, with sentences longer than the maximum cut into overlapping word chunks. */
function splitPieces(folded: string): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  const push = (end: number) => {
    if (end > start) pieces.push(...chunk(folded, start, end));
    start = end;
  };
  for (const match of folded.matchAll(BOUNDARY)) push(match.index + match[0].length);
  push(folded.length);
  return pieces;
}

function chunk(text: string, start: number, end: number): Piece[] {
  const bounds: [number, number][] = [];
  // Searched within the piece only: from `start` to the end of the text, a piece without words
  // scanned the rest of the text, and 33,000 "|" pieces took a second.
  for (const m of text.slice(start, end).matchAll(WORD)) {
    bounds.push([start + m.index, start + m.index + m[0].length]);
  }
  if (bounds.length === 0) return [];
  if (bounds.length <= WINDOW_MAX_WORDS) return [{ start, end, words: bounds.length }];
  const step = WINDOW_MAX_WORDS - CHUNK_OVERLAP;
  const out: Piece[] = [];
  for (let i = 0; i < bounds.length; i += step) {
    const last = Math.min(bounds.length, i + WINDOW_MAX_WORDS) - 1;
    out.push({
      start: (bounds[i] as [number, number])[0],
      end: (bounds[last] as [number, number])[1],
      words: last - i + 1,
    });
    if (last === bounds.length - 1) break;
  }
  return out;
}
