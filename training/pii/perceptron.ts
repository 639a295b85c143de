/**
 * The pii tagger's training: texts turned into the runtime featurizer's rows (src/guardrails/pii/
 * tagger/features.ts), then an averaged perceptron (Collins 2002) with greedy BIO decoding, the
 * decoding the runtime tagger does.
 */
import type { Lexicon } from "../../src/guardrails/pii/lexicon.js";
import {
  createFeaturizer,
  MAX_FEATURES,
  TRANSITION_FEATURES,
  transitionRows,
} from "../../src/guardrails/pii/tagger/features.js";
import type { WordStatesOf } from "../../src/guardrails/pii/tagger/tagger.js";
import { allowed, TAG_COUNT, TAGGED_ENTITIES, tagOf } from "../../src/guardrails/pii/tagger/tags.js";
import { createTokens, tokenizeInto } from "../../src/guardrails/pii/tagger/tokenize.js";
import { WORD_STATE_DIM } from "../../src/guardrails/pii/tagger/word-states.js";
import { mulberry32, shuffle } from "../lib/random.js";
import type { LabelledText } from "./data.js";

/** A training example: its static feature rows (already masked) and gold tags. */
export interface TaggedExample {
  rows: Int32Array;
  counts: Int32Array;
  shapeKeys: Int32Array;
  gold: Int32Array;
  /** The encoder's state of each token (WORD_STATE_DIM a token, unit length), when trained with them. */
  dense?: Float32Array;
}

/** Turns labelled texts into examples for a table of `dim` rows (a power of two). */
export function createExampleMaker(
  lexicon: Lexicon,
  dim: number,
  statesOf?: WordStatesOf,
): (t: LabelledText) => TaggedExample {
  const featurizer = createFeaturizer(lexicon);
  const tokens = createTokens();
  const mask = dim - 1;
  return (t) => {
    tokenizeInto(t.text, tokens);
    featurizer.prepare(t.text, tokens);
    const n = tokens.count;
    const gold = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const s = t.spans.find(
        (g) => g.start < (tokens.ends[i] as number) && (tokens.starts[i] as number) < g.end,
      );
      if (!s) continue;
      const entity = TAGGED_ENTITIES.indexOf(s.label as (typeof TAGGED_ENTITIES)[number]);
      const inside =
        i > 0 && (tokens.starts[i - 1] as number) >= s.start && (tokens.ends[i - 1] as number) <= s.end;
      gold[i] = tagOf(entity, inside);
    }
    const rows = featurizer.rows.slice(0, n * MAX_FEATURES).map((h) => h & mask);
    const dense = statesOf?.(t.text, tokens);
    return {
      rows,
      counts: featurizer.counts.slice(0, n),
      shapeKeys: featurizer.shapeKeys.slice(0, n),
      gold,
      ...(dense ? { dense } : {}),
    };
  };
}

/**
 * Averaged perceptron weights (`dim` rows × TAG_COUNT), averaged lazily: `totals` accumulate weight
 * × time since its last change. Shuffles `examples` in place, once per epoch, from `seed`. Examples
 * with `dense` rows also train WORD_STATE_DIM × TAG_COUNT real-valued weights over them, each
 * state scaled by `denseScale` (a sparse feature counts 1).
 */
export function trainPerceptron(
  examples: TaggedExample[],
  o: { dim: number; epochs: number; seed: number; denseScale?: number },
  log: (m: string) => void,
): { weights: Float64Array; dense?: Float64Array } {
  const mask = o.dim - 1;
  const weights = new Float64Array(o.dim * TAG_COUNT);
  const totals = new Float64Array(o.dim * TAG_COUNT);
  const stamps = new Float64Array(o.dim * TAG_COUNT);
  let clock = 1;
  const bump = (row: number, tag: number, v: number): void => {
    const k = row * TAG_COUNT + tag;
    totals[k] = (totals[k] as number) + (clock - (stamps[k] as number)) * (weights[k] as number);
    stamps[k] = clock;
    weights[k] = (weights[k] as number) + v;
  };
  const withDense = examples.some((e) => e.dense);
  const denseSize = withDense ? WORD_STATE_DIM * TAG_COUNT : 0;
  const dW = new Float64Array(denseSize);
  const dTotals = new Float64Array(denseSize);
  const dStamps = new Float64Array(denseSize);
  const denseScale = o.denseScale ?? 1;
  const bumpDense = (x: Float32Array, from: number, tag: number, sign: number): void => {
    for (let d = 0; d < WORD_STATE_DIM; d++) {
      const k = d * TAG_COUNT + tag;
      dTotals[k] = (dTotals[k] as number) + (clock - (dStamps[k] as number)) * (dW[k] as number);
      dStamps[k] = clock;
      dW[k] = (dW[k] as number) + sign * denseScale * (x[from + d] as number);
    }
  };
  const random = mulberry32(o.seed);
  const scores = new Float64Array(TAG_COUNT);
  const trans = new Int32Array(TRANSITION_FEATURES);
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    shuffle(examples, random);
    let correct = 0;
    let total = 0;
    for (const ex of examples) {
      let previous = 0;
      let previous2 = 0;
      for (let i = 0; i < ex.gold.length; i++) {
        scores.fill(0);
        const count = ex.counts[i] as number;
        const rowsOf = (f: number) =>
          f < count ? (ex.rows[i * MAX_FEATURES + f] as number) : (trans[f - count] as number) & mask;
        transitionRows(previous, previous2, ex.shapeKeys[i] as number, trans);
        for (let f = 0; f < count + TRANSITION_FEATURES; f++) {
          const base = rowsOf(f) * TAG_COUNT;
          for (let t = 0; t < TAG_COUNT; t++)
            scores[t] = (scores[t] as number) + (weights[base + t] as number);
        }
        const x = ex.dense;
        if (x)
          for (let d = 0, from = i * WORD_STATE_DIM; d < WORD_STATE_DIM; d++) {
            const v = denseScale * (x[from + d] as number);
            if (v === 0) continue;
            for (let t = 0; t < TAG_COUNT; t++)
              scores[t] = (scores[t] as number) + v * (dW[d * TAG_COUNT + t] as number);
          }
        let best = 0;
        for (let t = 1; t < TAG_COUNT; t++)
          if (allowed(previous, t) && (scores[t] as number) > (scores[best] as number)) best = t;
        const g = ex.gold[i] as number;
        // An I tag that cannot follow the predicted history is learned as the B tag that could.
        const target = allowed(previous, g) ? g : g - 1;
        if (best !== target) {
          for (let f = 0; f < count + TRANSITION_FEATURES; f++) {
            bump(rowsOf(f), target, 1);
            bump(rowsOf(f), best, -1);
          }
          if (x) {
            bumpDense(x, i * WORD_STATE_DIM, target, 1);
            bumpDense(x, i * WORD_STATE_DIM, best, -1);
          }
        } else correct++;
        total++;
        clock++;
        previous2 = previous;
        previous = best;
      }
    }
    log(`epoch ${epoch}: training token accuracy ${(correct / total).toFixed(4)}`);
  }
  for (let k = 0; k < weights.length; k++) {
    totals[k] = (totals[k] as number) + (clock - (stamps[k] as number)) * (weights[k] as number);
    weights[k] = (totals[k] as number) / clock;
  }
  if (!withDense) return { weights };
  for (let k = 0; k < denseSize; k++) {
    dTotals[k] = (dTotals[k] as number) + (clock - (dStamps[k] as number)) * (dW[k] as number);
    // The runtime multiplies unscaled states: the scale goes into the weights.
    dW[k] = ((dTotals[k] as number) / clock) * denseScale;
  }
  return { weights, dense: dW };
}
