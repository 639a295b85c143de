import { createLeakDetector, type Encoder, type LeakDetector } from "./detector/index.js";

/** Distinct system prompts kept indexed: an app sends the same one with every request. */
const KEPT = 32;

/**
 * Leak detectors for the system prompts requests carry (output-check's `messages`), for a profile
 * that configures none. Indexing a prompt (its shingles, its sentences' vectors) is the costly
 * part, so each prompt's detector is built once and kept while it is among the latest KEPT used.
 */
export function requestPromptDetectors(
  canaries: readonly string[],
  encoder: Encoder | undefined,
): (systemPrompt: string) => Promise<LeakDetector> {
  const kept = new Map<string, Promise<LeakDetector>>();
  return (systemPrompt) => {
    let detector = kept.get(systemPrompt);
    if (detector) kept.delete(systemPrompt);
    detector ??= createLeakDetector({ systemPrompt, canaries, ...(encoder ? { encoder } : {}) });
    // A failed build is not kept: the next request tries again.
    detector.catch(() => kept.get(systemPrompt) === detector && kept.delete(systemPrompt));
    kept.set(systemPrompt, detector);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
    return detector;
  };
}
