/**
 * Calibration from out-of-fold logits: K fits, each on the other folds' rows, score the fold they
 * never saw; Platt scaling and the threshold sweep see only those scores.
 */
import { calibrate as calibrated } from "../../src/guardrails/content-moderation/model/model.js";
import { rawScore } from "../../src/guardrails/content-moderation/model/raw-score.js";
import type { Platt } from "../../src/guardrails/content-moderation/model/weights.js";
import { atThreshold, type Scored } from "../lib/metrics.js";
import { fitPlatt } from "../lib/platt.js";
import type { Vectors } from "./embed-cache.js";
import { type HeadOptions, trainHeads } from "./heads.js";
import { BENIGN_SOURCES } from "./report.js";
import { FOLDS, type Row } from "./splits.js";

export interface OutOfFold {
  ngram: number;
  embedding: number | null;
  label: 0 | 1;
  source: string;
}

export function outOfFoldLogits(
  binaryTrain: readonly Row[],
  categoryTrain: readonly Row[],
  options: HeadOptions,
  vectors: Vectors | undefined,
  log: (m: string) => void,
): OutOfFold[] {
  const oof: OutOfFold[] = [];
  for (let k = 0; k < FOLDS; k++) {
    const params = trainHeads(
      binaryTrain.filter((r) => r.fold !== k),
      categoryTrain.filter((r) => r.fold !== k),
      options,
      vectors,
    );
    for (const r of binaryTrain.filter((x) => x.fold === k)) {
      const raw = rawScore(params, r.text, vectors?.get(r.text));
      oof.push({ ngram: raw.ngram, embedding: raw.embedding, label: r.label ?? 0, source: r.source });
    }
    log(`fold ${k + 1}/${FOLDS} done`);
  }
  return oof;
}

export interface Calibration {
  platt: { ngram: Platt; combined: Platt | null };
  threshold: number;
  /** The calibrated out-of-fold scores, by the sets the threshold sweep weighs. */
  gptfuzz: Scored[];
  toxic: Scored[];
  benign: Scored[];
}

/**
 * Platt scaling of the n-gram logit and (with embeddings) of the mean of both heads' logits, then
 * the threshold with the best mean F1 over GPTFuzz and toxicity whose FPR on ordinary answers is ≤ 2%.
 */
export function calibrate(
  oof: readonly OutOfFold[],
  withEmbeddings: boolean,
  log: (m: string) => void,
): Calibration {
  const labels = oof.map((o) => o.label);
  const tuple = (p: { a: number; b: number }): Platt => [p.a, p.b];
  const ngram = tuple(
    fitPlatt(
      oof.map((o) => o.ngram),
      labels,
    ),
  );
  const combined = withEmbeddings
    ? tuple(
        fitPlatt(
          oof.map((o) => (o.ngram + (o.embedding ?? o.ngram)) / 2),
          labels,
        ),
      )
    : null;
  const scores = oof.map((o) => ({
    score: calibrated({ ...o, categoryProbs: new Float64Array() }, ngram, combined),
    label: o.label,
    source: o.source,
  }));
  const of = (pick: (s: string) => boolean): Scored[] => scores.filter((o) => pick(o.source));
  const gptfuzz = of((s) => s === "gptfuzz");
  const benign = of((s) => BENIGN_SOURCES.includes(s));
  const toxic = of((s) => s === "davidson" || s === "toxigen");

  let threshold = 0.5;
  let best = -1;
  for (let t = 0.05; t <= 0.951; t += 0.01) {
    const objective = (atThreshold(gptfuzz, t).f1 + atThreshold(toxic, t).f1) / 2;
    if (atThreshold(benign, t).fpr <= 0.02 && objective > best) {
      best = objective;
      threshold = Math.round(t * 100) / 100;
    }
  }
  log(`threshold ${threshold} (OOF objective ${best.toFixed(4)})`);
  return { platt: { ngram, combined }, threshold, gptfuzz, toxic, benign };
}
