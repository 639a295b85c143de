import type { Detector } from "../../../src/guardrails/types.js";
import { normalizeText } from "../../../src/text/normalize.js";

/**
 * Checks `text` as the engine checks a chunk of a stream: settled windows first, the whole text
 * on demand. Says how often the detector asked for the whole text's embedding.
 */
export async function checkAsChunk(detector: Detector, text: string) {
  let wholeAsked = 0;
  const embedded = { windows: [], vectors: [] };
  const finding = await detector.check({
    mode: "output",
    text: normalizeText(text),
    embedding: async () => embedded,
    wholeEmbedding: async () => {
      wholeAsked++;
      return embedded;
    },
  });
  return { finding, wholeAsked };
}
