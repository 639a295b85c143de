import type { EmbeddedText } from "../../engine/embedding.js";
import type { TextWindow } from "../../text/windows.js";
import type { BestMatch } from "./scan.js";

/** Best match of a set of unit query vectors against the index (native-scan.ts, or scan.ts). */
export type Scan = (queries: readonly Float32Array[]) => Promise<BestMatch>;

export interface Scored extends BestMatch {
  /** Where in the text the best match lies. */
  readonly span: TextWindow | undefined;
}

/**
 * Best cosine of a text against the index: over the shared windows, and over the shared sentence
 * pieces when the text has them (a text longer than one window; see engine/embedding.ts).
 */
export async function scoreText(
  scan: Scan,
  shared: () => Promise<EmbeddedText>,
  pieces?: () => Promise<EmbeddedText>,
): Promise<Scored> {
  // Both asked for before either is awaited, so an encoder pool embeds them at once.
  const [embedded, fine] = await Promise.all([shared(), pieces?.()]);
  const coarse = await scan(embedded.vectors);
  const best = { ...coarse, span: embedded.windows[coarse.window] };
  if (!fine || fine.windows.length === 0) return best;
  const refined = await scan(fine.vectors);
  return refined.score > coarse.score ? { ...refined, span: fine.windows[refined.window] } : best;
}
