/**
 * The tagger's tokens: words (with inner apostrophes, hyphens and periods: "O'Brien", "Jean-Luc"),
 * digit runs and single punctuation marks, each with its character offsets so a tagged run maps back
 * to the exact slice of the message.
 */
export interface TaggerTokens {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  /** The token text as written. */
  texts: string[];
}

const TOKEN = /\p{L}[\p{L}\p{M}]*(?:['’\-.]\p{L}[\p{L}\p{M}]*)*|\d+|[^\s\p{L}\p{M}\d]/gu;

export function createTokens(): TaggerTokens {
  return { count: 0, starts: new Int32Array(256), ends: new Int32Array(256), texts: [] };
}

/** Fills `into` (grown when needed, never shrunk) so a detector reuses its buffers across messages. */
export function tokenizeInto(text: string, into: TaggerTokens): TaggerTokens {
  let n = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    if (n === into.starts.length) {
      const starts = new Int32Array(n * 2);
      const ends = new Int32Array(n * 2);
      starts.set(into.starts);
      ends.set(into.ends);
      into.starts = starts;
      into.ends = ends;
    }
    into.starts[n] = m.index;
    into.ends[n] = m.index + m[0].length;
    into.texts[n] = m[0];
    n++;
  }
  into.count = n;
  into.texts.length = n;
  return into;
}
