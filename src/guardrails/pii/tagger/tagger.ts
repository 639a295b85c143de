import type { PiiEntity } from "../entities.js";
import type { Lexicon } from "../lexicon.js";
import type { PiiSpan, Recognizer } from "../recognizer.js";
import { createFeaturizer, MAX_FEATURES, TRANSITION_FEATURES, transitionRows } from "./features.js";
import type { TaggerModel } from "./model.js";
import { allowed, entityOf, isInside, TAG_COUNT, TAGGED_ENTITIES, type TaggedEntity } from "./tags.js";
import { createTokens, tokenizeInto } from "./tokenize.js";

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
export function createTagger(model: TaggerModel, lexicon: Lexicon) {
  const tokens = createTokens();
  const features = createFeaturizer(lexicon);
  const scores = new Float64Array(TAG_COUNT);
  const transitions = new Int32Array(TRANSITION_FEATURES);
  const mask = model.dim - 1;
  const w = model.weights;
  let tags = new Int32Array(256);

  function addRow(hash: number): void {
    const base = (hash & mask) * TAG_COUNT;
    for (let t = 0; t < TAG_COUNT; t++) scores[t] = (scores[t] as number) + (w[base + t] as number);
  }

  return function tag(text: string): TaggedSpan[] {
    tokenizeInto(text, tokens);
    features.prepare(text, tokens);
    const n = tokens.count;
    if (tags.length < n) tags = new Int32Array(n * 2);
    let previous = 0;
    let previous2 = 0;
    for (let i = 0; i < n; i++) {
      scores.fill(0);
      const base = i * MAX_FEATURES;
      const count = features.counts[i] as number;
      for (let f = 0; f < count; f++) addRow(features.rows[base + f] as number);
      transitionRows(previous, previous2, features.shapeKeys[i] as number, transitions);
      for (const h of transitions) addRow(h);
      let best = 0;
      for (let t = 1; t < TAG_COUNT; t++) {
        if (allowed(previous, t) && (scores[t] as number) > (scores[best] as number)) best = t;
      }
      tags[i] = best;
      previous2 = previous;
      previous = best;
    }
    return spansOf(tags, n, tokens.starts, tokens.ends);
  };
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
): Recognizer {
  const tag = createTagger(model, lexicon);
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
