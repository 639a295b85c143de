import type { EmbeddedText } from "../../engine/embedding.js";
import type { Encoder } from "../../models/encoder.js";
import { splitIntoWindows, type TextWindow } from "../../models/use-lite/windows.js";
import type { BestMatch } from "./scan.js";

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

/** Best match of a set of unit query vectors against the index (native-scan.ts, or scan.ts). */
export type Scan = (queries: readonly Float32Array[]) => Promise<BestMatch>;

/**
 * Best cosine of a text against the index: over the shared windows, and, when the text spans
 * more than one window (and has at most MAX_PIECES pieces), over its sentence-sized pieces as well
 * (one extra encoder call). A text that fits one window gets no second pass: that pass doubled the
 * encoder's work on every ordinary prompt, while in a ≤96-token text the attack is a large share of
 * the window anyway (models/vector/README.md has the figures both ways).
 */
export async function scoreText(
  scan: Scan,
  text: string,
  shared: () => Promise<EmbeddedText>,
  encoder: Encoder,
): Promise<Scored> {
  const embedded = await shared();
  const coarse = await scan(embedded.vectors);
  const best = { ...coarse, span: embedded.windows[coarse.window] };
  if (embedded.windows.length < 2) return best;
  const pieces = splitIntoWindows(text, (t) => encoder.countTokens(t), {
    maxTokens: PIECE_TOKENS,
    overlap: 0,
  });
  if (pieces.length > MAX_PIECES) return best;
  const fine = await scan(await encoder.embed(pieces.map((p) => p.text)));
  return fine.score > coarse.score ? { ...fine, span: pieces[fine.window] } : best;
}
