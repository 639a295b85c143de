import { type HashedModel, textScores } from "./linear.js";
import { type OverlapIndex, overlapParts } from "./overlap.js";
import { type SemanticIndex, semanticParts } from "./semantic.js";
import { words } from "./tokens.js";

/** What scoring one response needs: the two classifiers and whatever the profile configured. */
export interface PartsContext {
  readonly disclosure: HashedModel;
  readonly extraction: HashedModel;
  readonly overlap?: OverlapIndex;
  readonly semantic?: SemanticIndex;
}

/**
 * Which combiner applies: `S` a system prompt is configured, `E` the encoder is available (only
 * with `S`: it compares against prompt sentences), `P` the originating prompt was sent.
 */
export function combinerKey(context: PartsContext, hasPrompt: boolean): string {
  return `${context.overlap ? "S" : ""}${context.semantic ? "E" : ""}${hasPrompt ? "P" : ""}`;
}

/**
 * Every part the combiner may read, each in [0, 1]. The learned parts (`disclosure*`,
 * `extraction`) are probabilities from their own classifiers.
 */
export async function computeParts(
  context: PartsContext,
  response: string,
  prompt?: string,
): Promise<Record<string, number>> {
  const disclosure = textScores(context.disclosure, response);
  const parts: Record<string, number> = { disclosure: disclosure.whole, disclosureWindow: disclosure.window };
  if (prompt !== undefined) parts.extraction = textScores(context.extraction, prompt).window;
  if (context.overlap) Object.assign(parts, overlapParts(context.overlap, words(response)));
  if (context.semantic) Object.assign(parts, await semanticParts(context.semantic, response));
  return parts;
}
