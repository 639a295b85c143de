import { featurize, type SparseVector } from "../../src/guardrails/llm/features/ngrams.js";
import { sentenceWindows } from "../../src/guardrails/llm/features/windows.js";
import { foldText } from "../../src/text/normalize.js";
import {
  dot,
  type LinearModel,
  type LogisticItem,
  type LogisticOptions,
  trainLogistic,
} from "../lib/logistic.js";
import { createRng, type Example, shuffle } from "./example.js";

// A benign document adds at most this many of its windows as negatives, each at this weight,
// so long documents teach "ordinary sentences are fine" without drowning the short prompts.
const NEGATIVE_WINDOWS = 8;
const WINDOW_WEIGHT = 0.5;

/** An example with its features: the whole text and every sentence window (as at inference). */
export interface Featured {
  example: Example;
  whole: SparseVector;
  windows: SparseVector[];
  /** Windows known to hold the planted payload (indirect examples only). */
  planted: number[];
}

export function featureExamples(examples: Example[], dim: number): Featured[] {
  return examples.map((example) => {
    const folded = foldText(example.text);
    const texts = sentenceWindows(folded);
    const payload = example.payload ? foldText(example.payload) : undefined;
    const planted: number[] = [];
    if (payload) {
      texts.forEach((t, i) => {
        if (t.includes(payload) || payload.includes(t)) planted.push(i);
      });
    }
    return { example, whole: featurize(folded, dim), windows: texts.map((t) => featurize(t, dim)), planted };
  });
}

/** The raw score the classifier uses: the maximum logit over the whole text and its windows. */
export function maxLogit(f: Featured, model: LinearModel): { z: number; at: number } {
  let z = dot(model.weights, f.whole) + model.bias;
  let at = -1;
  f.windows.forEach((w, i) => {
    const s = dot(model.weights, w) + model.bias;
    if (s > z) [z, at] = [s, i];
  });
  return { z, at };
}

/**
 * Training items: every whole text; some windows of benign texts as negatives; the windows that
 * hold a planted payload as positives; and, once a first model exists (`model`), each attack's
 * highest-scoring window as a positive too (one round of multiple-instance learning: an attack
 * contains at least one attacking window, and the model picks which).
 */
export function trainingItems(featured: Featured[], seed: number, model?: LinearModel): LogisticItem[] {
  const rng = createRng(seed);
  const items: LogisticItem[] = [];
  for (const f of featured) {
    const y = f.example.label;
    // A planted e-mail is an attack only where the payload is: its other sentences are the same
    // ordinary e-mail as the clean copies, so the whole text would teach "e-mails are attacks".
    if (f.planted.length === 0) items.push({ x: f.whole, y, weight: 1 });
    if (y === 0) {
      const picks = shuffle([...f.windows.keys()], rng).slice(0, NEGATIVE_WINDOWS);
      for (const i of picks) items.push({ x: f.windows[i] as SparseVector, y: 0, weight: WINDOW_WEIGHT });
    } else if (f.planted.length > 0) {
      // The carrier's own windows are negatives: the same sentences with and without the
      // payload teach that the payload, not the document around it, is the attack.
      const planted = new Set(f.planted);
      const clean = shuffle(
        [...f.windows.keys()].filter((i) => !planted.has(i)),
        rng,
      ).slice(0, NEGATIVE_WINDOWS);
      for (const i of f.planted) items.push({ x: f.windows[i] as SparseVector, y: 1, weight: WINDOW_WEIGHT });
      for (const i of clean) items.push({ x: f.windows[i] as SparseVector, y: 0, weight: WINDOW_WEIGHT });
    } else if (model && f.windows.length > 0) {
      const scores = f.windows.map((w) => dot(model.weights, w));
      const best = scores.indexOf(Math.max(...scores));
      items.push({ x: f.windows[best] as SparseVector, y: 1, weight: WINDOW_WEIGHT });
    }
  }
  return items;
}

/**
 * The n-gram model, trained twice: on whole texts and windows, then again with each attack's
 * highest-scoring window as a positive (trainingItems).
 */
export function trainNgrams(featured: Featured[], o: LogisticOptions): LinearModel {
  const first = trainLogistic(trainingItems(featured, o.seed), o);
  return trainLogistic(trainingItems(featured, o.seed, first), o);
}
