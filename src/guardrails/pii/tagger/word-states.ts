/**
 * The encoder's token states as one vector per tagger token (issue 22: "try it for pii's name
 * tagger too"). The encoder splits text into SentencePiece pieces, the tagger into words; a word's
 * vector is the mean of the states of the pieces that overlap it, scaled to unit length so that
 * its weight in the linear tagger does not depend on how many pieces the word has.
 */
import type { TaggerTokens } from "./tokenize.js";

/** USE-lite's state size (USE_LITE_DIM), not imported from it: the tagger must not load onnxruntime. */
export const WORD_STATE_DIM = 512;

/**
 * `tokenEnds` (Tokenizer.tokenEnds: code-point offsets into the model's view, a separator then the
 * text) and `states` (a row of WORD_STATE_DIM per piece, as many rows as were encoded: pieces past
 * the last row get none) → `tokens.count` rows, zero where no encoded piece overlaps a word.
 */
export function wordStates(
  text: string,
  tokens: TaggerTokens,
  tokenEnds: Int32Array,
  states: Float32Array,
): Float32Array {
  const out = new Float32Array(tokens.count * WORD_STATE_DIM);
  const pieces = Math.min(tokenEnds.length, Math.floor(states.length / WORD_STATE_DIM));
  // UTF-16 offset of each code point of the model's view; view position k ≥ 1 is text code point k-1.
  const u16 = new Int32Array(tokenEnds.length ? (tokenEnds.at(-1) as number) + 1 : 1);
  for (let k = 1, i = 0; k < u16.length; k++) {
    u16[k] = i;
    i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
  }
  const at = (k: number): number => (k <= 0 ? 0 : k < u16.length ? (u16[k] as number) : text.length);
  let piece = 0;
  for (let w = 0; w < tokens.count; w++) {
    const start = tokens.starts[w] as number;
    const end = tokens.ends[w] as number;
    // Pieces are in text order, as are words: skip the pieces that end before this word.
    while (piece < pieces && at(tokenEnds[piece] as number) <= start) piece++;
    const row = out.subarray(w * WORD_STATE_DIM, (w + 1) * WORD_STATE_DIM);
    for (let p = piece; p < pieces; p++) {
      const pieceStart = at(p === 0 ? 0 : (tokenEnds[p - 1] as number));
      if (pieceStart >= end) break;
      const from = p * WORD_STATE_DIM;
      for (let d = 0; d < WORD_STATE_DIM; d++) row[d] = (row[d] as number) + (states[from + d] as number);
    }
    let norm = 0;
    for (let d = 0; d < WORD_STATE_DIM; d++) norm += (row[d] as number) ** 2;
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let d = 0; d < WORD_STATE_DIM; d++) row[d] = (row[d] as number) * scale;
    }
  }
  return out;
}
