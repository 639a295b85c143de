import type { EmbeddedText } from "../../engine/embedding.js";
import type { Encoder } from "../../models/encoder.js";
import { splitIntoWindows, type TextWindow } from "../../models/use-lite/windows.js";
import type { VectorIndex } from "./index-file.js";
import { type BestMatch, bestMatch } from "./scan.js";

/**
 * Sentence-sized pieces: the shared windows pack sentences up to 96 tokens, and one injected
 * sentence among three benign ones scored 0.58 against its own paraphrase's 0.84 (an e-mail with
 * an appended instruction). Short pieces keep it whole and alone.
 */
const PIECE_TOKENS = 32;
/** About 1,500 words: past this the second pass would double the encoder's work on huge inputs. */
const MAX_PIECES = 64;

export interface Scored extends BestMatch {
  /** Where in the text the best match lies. */
  readonly span: TextWindow | undefined;
}

/**
 * Best cosine of a text against the index: over the shared windows, and, when the text has more
 * than one sentence (and at most MAX_PIECES of them), over its sentence-sized pieces as well (one
 * extra encoder call). The pieces are sent to the encoder before the shared windows are awaited,
 * so with an encoder pool both calls run at once instead of one after the other.
 */
export async function scoreText(
  index: VectorIndex,
  text: string,
  shared: () => Promise<EmbeddedText>,
  encoder: Encoder,
): Promise<Scored> {
  const pieces = splitIntoWindows(text, (t) => encoder.countTokens(t), {
    maxTokens: PIECE_TOKENS,
    overlap: 0,
  });
  const refine = pieces.length >= 2 && pieces.length <= MAX_PIECES;
  const [embedded, pieceVectors] = await Promise.all([
    shared(),
    refine ? encoder.embed(pieces.map((p) => p.text)) : undefined,
  ]);
  const coarse = bestMatch(index, embedded.vectors);
  const best = { ...coarse, span: embedded.windows[coarse.window] };
  if (!pieceVectors) return best;
  const fine = bestMatch(index, pieceVectors);
  return fine.score > coarse.score ? { ...fine, span: pieces[fine.window] } : best;
}
