import type { EmbeddedText } from "../../engine/embedding.js";
import type { TextWindow } from "../../text/windows.js";
import type { BestMatch } from "./scan.js";

/** Best match of a set of unit query vectors against the index (native-scan.ts, or scan.ts). */
export type Scan = (queries: readonly Float32Array[]) => Promise<BestMatch>;
/** A scanner that answers several sets of queries from one run (Scanner.bestEach in native-scan.ts). */
export interface ScanEach {
  bestEach(groups: readonly (readonly Float32Array[])[]): Promise<BestMatch[]>;
}

export interface Scored extends BestMatch {
  /** Where in the text the best match lies. */
  readonly span: TextWindow | undefined;
}

/**
 * Best cosine of a text against the index: over the shared windows, and over the shared sentence
 * pieces when the text has them (a text longer than one window; see engine/embedding.ts).
 */
export async function scoreText(
  scan: Scan | ScanEach,
  shared: () => Promise<EmbeddedText>,
  pieces?: () => Promise<EmbeddedText>,
): Promise<Scored> {
  // Both asked for before either is awaited, so an encoder pool embeds them at once.
  const [embedded, fine] = await Promise.all([shared(), pieces?.()]);
  // One run for windows and pieces (bestEach): scanning them apart read the whole index twice.
  const hasPieces = fine !== undefined && fine.windows.length > 0;
  const groups = hasPieces ? [embedded.vectors, fine.vectors] : [embedded.vectors];
  const [coarse, refined] = (
    typeof scan === "function" ? await Promise.all(groups.map((g) => scan(g))) : await scan.bestEach(groups)
  ) as [BestMatch, BestMatch?];
  const best = { ...coarse, span: embedded.windows[coarse.window] };
  if (!(hasPieces && refined)) return best;
  return refined.score > coarse.score ? { ...refined, span: fine.windows[refined.window] } : best;
}
