import type { Encoder } from "../../../models/encoder.js";
import { sentences } from "./sentences.js";

/**
 * What the leak detector needs from the shared sentence encoder: unit vectors, one per text, in
 * order. The USE-lite encoder is one; tests can pass a stub.
 */
export type SentenceEncoder = Pick<Encoder, "embed">;

// Long system prompts (some carry whole knowledge files) are capped so building the index stays
// one batch of encoder calls; the rules that matter sit near the top.
const PROMPT_SENTENCES = 256;
const RESPONSE_SENTENCES = 64;
// A response sentence this close to a prompt sentence counts as restating it.
const CLOSE = 0.75;

export interface SemanticIndex {
  readonly encoder: SentenceEncoder;
  readonly vectors: readonly Float32Array[];
}

export async function indexPromptSentences(
  encoder: SentenceEncoder,
  systemPrompt: string,
): Promise<SemanticIndex> {
  const pieces = sentences(systemPrompt, PROMPT_SENTENCES);
  return { encoder, vectors: pieces.length ? await encoder.embed(pieces) : [] };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** Best cosine of each response sentence against every prompt sentence (vectors are unit length). */
export function bestMatches(index: SemanticIndex, responseVectors: readonly Float32Array[]): number[] {
  return responseVectors.map((v) => index.vectors.reduce((best, p) => Math.max(best, dot(v, p)), 0));
}

/**
 * Semantic parts: `semMax` the closest single sentence, `semTop` the mean of the three closest
 * (a paraphrased rule list restates several rules), `semFrac` the share of response sentences
 * that restate some rule (a summary is mostly restatement; an on-topic answer only in places).
 */
export async function semanticParts(index: SemanticIndex, response: string): Promise<Record<string, number>> {
  const pieces = sentences(response, RESPONSE_SENTENCES);
  if (!pieces.length || !index.vectors.length) return { semMax: 0, semTop: 0, semFrac: 0 };
  const best = bestMatches(index, await index.encoder.embed(pieces)).sort((a, b) => b - a);
  const top = best.slice(0, 3);
  return {
    semMax: best[0] ?? 0,
    semTop: top.reduce((s, x) => s + x, 0) / top.length,
    semFrac: best.filter((x) => x >= CLOSE).length / best.length,
  };
}
