import { createNgramScorer, type NgramMax } from "../../src/guardrails/llm/ngram-scorer.js";
import { hashRange } from "../../src/text/hash.js";
import { foldText } from "../../src/text/normalize.js";
import type { LinearModel } from "../lib/logistic.js";
import type { Embedded } from "./embed.js";
import { dataInputOf, type Example } from "./example.js";
import type { Featured } from "./items.js";
import type { MlpOptions } from "./mlp-train.js";
import { stackExample } from "./stack.js";
import { maxWindowLogit, trainStage } from "./stage-mlp.js";

type Scorer = (folded: string) => NgramMax;

/** What one fit needs: the examples, their n-gram features and their engine windows, aligned. */
export interface FitSet {
  examples: Example[];
  featured: Featured[];
  embedded: Embedded[];
}

export interface FitContext {
  dim: number;
  /** Template family of an example (see dedup.ts): folds never split a family. */
  family: (e: Example) => string;
  trainNgrams: (list: Featured[]) => LinearModel;
  /** Must set `averageFrom`: a fit inside a fold has no validation split to stop on. */
  mlp: MlpOptions;
  log: (m: string) => void;
}

/** Folds for the MLP's stacked n-gram inputs. */
export const STACK_FOLDS = 4;

/**
 * The n-gram scorer for each stacking fold: fold k's inputs come from a fit on the other folds'
 * families, so the MLP learns how far to trust the n-grams on text they never saw.
 */
export function foldScorers(featured: Featured[], ctx: FitContext, seed: number): (fold: number) => Scorer {
  const fam = ctx.family;
  const foldOf = (e: Example) => hashRange(seed + 17, fam(e), 0, fam(e).length) % STACK_FOLDS;
  return (k) => {
    const m = ctx.trainNgrams(featured.filter((f) => foldOf(f.example) !== k));
    return createNgramScorer(ctx.dim, m.weights, m.bias);
  };
}

/** The n-gram model and the MLP fitted on `set`, with out-of-fold n-gram inputs for the MLP. */
export function fitStack(set: FitSet, ctx: FitContext, seed: number) {
  const model = ctx.trainNgrams(set.featured);
  const scorer = createNgramScorer(ctx.dim, model.weights, model.bias);
  const stage = trainStage(
    set.examples,
    set.embedded,
    { examples: [], embedded: [], scorer },
    ctx.family,
    STACK_FOLDS,
    foldScorers(set.featured, ctx, seed),
    { ...ctx.mlp, seed },
    ctx.log,
  );
  return { model, scorer, mlp: stage.mlp };
}

/**
 * Out-of-fold raw scores for every example of `set`: `folds` fits, each on the families of the
 * other folds, score the held-back fold. Calibrating and choosing the threshold on these, instead
 * of on a calibration split, lets the shipped model train on that split too: every family then
 * teaches the model, and every family is still judged by a model that never saw it.
 */
export function outOfFold(
  set: FitSet,
  ctx: FitContext,
  folds: number,
  seed: number,
): { ngram: number[]; mlp: number[] } {
  const fam = ctx.family;
  const foldOf = (e: Example) => hashRange(seed + 31, fam(e), 0, fam(e).length) % folds;
  const ngram = new Array<number>(set.examples.length).fill(0);
  const mlp = new Array<number>(set.examples.length).fill(0);
  for (let k = 0; k < folds; k++) {
    const inFold = set.examples.flatMap((e, i) => (foldOf(e) === k ? [i] : []));
    const held = new Set(inFold);
    const pick = <T>(xs: T[]) => xs.filter((_, i) => !held.has(i));
    const fit = fitStack(
      { examples: pick(set.examples), featured: pick(set.featured), embedded: pick(set.embedded) },
      ctx,
      seed + k,
    );
    for (const i of inFold) {
      const e = set.examples[i] as Example;
      ngram[i] = fit.scorer(foldText(e.text)).z;
      const data = dataInputOf(e, ctx.mlp.dataInput);
      mlp[i] = maxWindowLogit(fit.mlp, stackExample(e, set.embedded[i] as Embedded, fit.scorer, data));
    }
    ctx.log(`out-of-fold ${k + 1}/${folds}: ${inFold.length} examples scored by a fit on the other folds`);
  }
  return { ngram, mlp };
}

// Re-exported for train.ts, which scores test and held-out data with the final fit's scorer.
export type { Scorer };
