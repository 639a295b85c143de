import type { PiiEntity } from "../entities.js";
import type { Lexicon } from "../lexicon.js";
import type { PiiSpan, Recognizer } from "../recognizer.js";
import { createFeaturizer, MAX_FEATURES, TRANSITION_FEATURES, transitionRows } from "./features.js";
import type { TaggerModel } from "./model.js";
import { allowed, entityOf, isInside, TAG_COUNT, TAGGED_ENTITIES, type TaggedEntity } from "./tags.js";
import { createTokens, type TaggerTokens, tokenizeInto } from "./tokenize.js";
import { WORD_STATE_DIM } from "./word-states.js";

/** A text's word states (word-states.ts), one row per tagger token, or undefined when there are none. */
export type WordStatesOf = (text: string, tokens: TaggerTokens) => Float32Array | undefined;

// allowed(previous, tag) as a table, row `previous`.
const ALLOWED = Uint8Array.from({ length: TAG_COUNT * TAG_COUNT }, (_, k) =>
  allowed(Math.floor(k / TAG_COUNT), k % TAG_COUNT) ? 1 : 0,
);

const TITLE = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir)(?:\.\s*|\s+|$)/i;

export interface TaggedSpan {
  start: number;
  end: number;
  label: TaggedEntity;
}

/**
 * Greedy left-to-right BIO decoding with a linear model: each token's tag is the best-scoring one
 * allowed after the previous tag. Buffers are reused, so a detector is not safe to share between
 * concurrent calls (JavaScript runs them one at a time anyway).
 */
export function createTagger(model: TaggerModel, lexicon: Lexicon, statesOf?: WordStatesOf) {
  if (TAG_COUNT !== 9) throw new Error("tagger.ts sums scores for exactly 9 tags");
  const tokens = createTokens();
  const features = createFeaturizer(lexicon);
  const scores = new Float64Array(TAG_COUNT);
  const dense = statesOf ? model.dense : undefined;
  const transitions = new Int32Array(TRANSITION_FEATURES);
  const mask = model.dim - 1;
  const w = model.weights;
  let tags = new Int32Array(256);

  return function tag(text: string): TaggedSpan[] {
    tokenizeInto(text, tokens);
    features.prepareTokens(text, tokens);
    const n = tokens.count;
    const states = dense ? statesOf?.(text, tokens) : undefined;
    if (tags.length < n) tags = new Int32Array(n * 2);
    const rows = new Int32Array(MAX_FEATURES + TRANSITION_FEATURES);
    const shapeKeys = features.shapeKeys;
    let previous = 0;
    let previous2 = 0;
    for (let i = 0; i < n; i++) {
      // Nine tags: the rows are summed in locals, one pass over each row's nine weights.
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0,
        s8 = 0;
      // The token's static features, then the three that depend on the tags already chosen.
      let end = features.featuresOf(i, rows);
      transitionRows(previous, previous2, shapeKeys[i] as number, transitions);
      rows[end++] = transitions[0] as number;
      rows[end++] = transitions[1] as number;
      rows[end++] = transitions[2] as number;
      for (let f = 0; f < end; f++) {
        const r = ((rows[f] as number) & mask) * 9;
        s0 += w[r] as number;
        s1 += w[r + 1] as number;
        s2 += w[r + 2] as number;
        s3 += w[r + 3] as number;
        s4 += w[r + 4] as number;
        s5 += w[r + 5] as number;
        s6 += w[r + 6] as number;
        s7 += w[r + 7] as number;
        s8 += w[r + 8] as number;
      }
      scores[0] = s0;
      scores[1] = s1;
      scores[2] = s2;
      scores[3] = s3;
      scores[4] = s4;
      scores[5] = s5;
      scores[6] = s6;
      scores[7] = s7;
      scores[8] = s8;
      if (dense && states) addDense(dense, states, i, scores);
      let best = 0;
      const allowedHere = previous * TAG_COUNT;
      for (let t = 1; t < TAG_COUNT; t++) {
        if (ALLOWED[allowedHere + t] === 1 && (scores[t] as number) > (scores[best] as number)) best = t;
      }
      tags[i] = best;
      previous2 = previous;
      previous = best;
    }
    return spansOf(tags, n, tokens.starts, tokens.ends);
  };
}

/** Adds token i's state × the dense weights to its nine scores. */
function addDense(dense: Float32Array, states: Float32Array, i: number, scores: Float64Array): void {
  for (let d = 0, from = i * WORD_STATE_DIM; d < WORD_STATE_DIM; d++) {
    const x = states[from + d] as number;
    if (x === 0) continue;
    const row = d * TAG_COUNT;
    for (let t = 0; t < TAG_COUNT; t++) scores[t] = (scores[t] as number) + x * (dense[row + t] as number);
  }
}

/** Turns BIO tags into character spans. */
export function spansOf(tags: Int32Array, n: number, starts: Int32Array, ends: Int32Array): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  for (let i = 0; i < n; i++) {
    const t = tags[i] as number;
    if (t === 0) continue;
    const last = out[out.length - 1];
    if (isInside(t) && last) last.end = ends[i] as number;
    else
      out.push({
        start: starts[i] as number,
        end: ends[i] as number,
        label: TAGGED_ENTITIES[entityOf(t)] as TaggedEntity,
      });
  }
  return out;
}

/** The tagger as a recogniser for the chosen entities. */
export function createTaggerRecognizer(
  model: TaggerModel,
  lexicon: Lexicon,
  entities: readonly PiiEntity[],
  statesOf?: WordStatesOf,
): Recognizer {
  const tag = createTagger(model, lexicon, statesOf);
  const wanted = new Set<string>(entities);
  return {
    entities: TAGGED_ENTITIES.filter((e) => wanted.has(e)),
    find(text, out: PiiSpan[]) {
      for (const s of tag(text)) {
        if (!wanted.has(s.label)) continue;
        // A courtesy title is not part of the name (Presidio labels it PREFIX): "Mr. Ford" → "Ford".
        const title = s.label === "PERSON" ? TITLE.exec(text.slice(s.start, s.end)) : null;
        if (title) s.start += title[0].length;
        if (s.start < s.end) out.push(s);
      }
    },
  };
}
