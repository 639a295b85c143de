/**
 * Calibration from out-of-fold logits: K fits, each on the other folds' rows, score the fold they
 * never saw; Platt scaling (one per signal, on that signal's own rows) and the threshold sweep see
 * only those scores.
 */
import {
  atOperatingPoint,
  calibrate as calibrated,
} from "../../src/guardrails/content-moderation/model/model.js";
import {
  MODERATION_SIGNALS,
  type ModerationSignal,
  type SignalLogits,
} from "../../src/guardrails/content-moderation/model/raw-score.js";
import type { Platt, SignalCalibration } from "../../src/guardrails/content-moderation/model/weights.js";
import { atThreshold, type Scored } from "../lib/metrics.js";
import { fitPlatt } from "../lib/platt.js";
import type { Vectors } from "./embed-cache.js";
import type { Signal } from "./example.js";
import { cachedRawScore, type HeadOptions, trainHeads } from "./heads.js";
import { BENIGN_SOURCES } from "./report.js";
import { FOLDS, type Row } from "./splits.js";

export interface OutOfFold {
  readonly logits: Readonly<Record<ModerationSignal, SignalLogits>>;
  readonly label: 0 | 1;
  readonly signal: Signal | undefined;
  readonly source: string;
}

export function outOfFoldLogits(
  binaryTrain: readonly Row[],
  options: HeadOptions,
  vectors: Vectors | undefined,
  log: (m: string) => void,
): OutOfFold[] {
  const oof: OutOfFold[] = [];
  for (let k = 0; k < FOLDS; k++) {
    const params = trainHeads(
      binaryTrain.filter((r) => r.fold !== k),
      null,
      options,
      vectors,
    );
    for (const r of binaryTrain.filter((x) => x.fold === k)) {
      const raw = cachedRawScore(params, r.text, vectors);
      oof.push({ logits: raw.signals, label: r.label ?? 0, signal: r.signal, source: r.source });
    }
    log(`fold ${k + 1}/${FOLDS} done`);
  }
  return oof;
}

export type Calibrations = Record<ModerationSignal, SignalCalibration>;

export interface Calibration {
  platt: Calibrations;
  threshold: number;
  /** The calibrated out-of-fold verdict scores (the larger signal), per source. */
  bySource: Map<string, Scored[]>;
}

/** The verdict's score: the larger of the two signals' calibrated probabilities. */
export const verdictScore = (logits: Readonly<Record<ModerationSignal, SignalLogits>>, p: Calibrations) =>
  Math.max(calibrated(logits.toxic, p.toxic), calibrated(logits.compliance, p.compliance));

/**
 * The out-of-fold rows per source, scored as the shipped model scores them: each signal's
 * calibrated probability placed against its operating point (`atOperatingPoint`), the larger.
 */
export function bySource(
  oof: readonly OutOfFold[],
  p: Calibrations,
  at: Readonly<Record<ModerationSignal, number>>,
) {
  const out = new Map<string, Scored[]>();
  for (const o of oof) {
    const list = out.get(o.source) ?? [];
    const score = Math.max(
      ...MODERATION_SIGNALS.map((s) => atOperatingPoint(calibrated(o.logits[s], p[s]), at[s])),
    );
    list.push({ score, label: o.label });
    out.set(o.source, list);
  }
  return out;
}

/** Per source, which signal its unsafe rows belong to (none for a source of safe rows only). */
export function sourceSignals(rows: readonly { source: string; signal?: Signal | undefined }[]) {
  const out = new Map<string, Signal | undefined>();
  for (const r of rows) if (!out.get(r.source)) out.set(r.source, r.signal);
  return out;
}

/**
 * Platt scaling per signal, fitted on that signal's rows (its positives and every safe row): of
 * the n-gram logit and (with embeddings) of the mean of both heads' logits. Then the verdict
 * threshold with the best macro F1 over the sources that have both labels, among thresholds
 * whose FPR on ordinary helpful answers is ≤ 2%.
 */
export function calibrate(
  oof: readonly OutOfFold[],
  withEmbeddings: boolean,
  log: (m: string) => void,
): Calibration {
  const tuple = (p: { a: number; b: number }): Platt => [p.a, p.b];
  const fit = (s: ModerationSignal): SignalCalibration => {
    const rows = oof.filter((o) => o.label === 0 || o.signal === s);
    const labels = rows.map((o) => o.label);
    const ngram = tuple(
      fitPlatt(
        rows.map((o) => o.logits[s].ngram),
        labels,
      ),
    );
    const combined = withEmbeddings
      ? tuple(
          fitPlatt(
            rows.map((o) => (o.logits[s].ngram + (o.logits[s].embedding ?? o.logits[s].ngram)) / 2),
            labels,
          ),
        )
      : null;
    return { ngram, combined };
  };
  const [toxic, compliance] = MODERATION_SIGNALS.map(fit) as [SignalCalibration, SignalCalibration];
  const platt = { toxic, compliance };

  const bySource = new Map<string, Scored[]>();
  for (const o of oof) {
    const list = bySource.get(o.source) ?? [];
    list.push({ score: verdictScore(o.logits, platt), label: o.label });
    bySource.set(o.source, list);
  }
  const mixed = [...bySource.values()].filter(
    (xs) => xs.some((x) => x.label === 1) && xs.some((x) => x.label === 0),
  );
  const benign = BENIGN_SOURCES.flatMap((s) => bySource.get(s) ?? []);

  let threshold = 0.5;
  let best = -1;
  for (let t = 0.05; t <= 0.951; t += 0.01) {
    const objective = mixed.reduce((sum, xs) => sum + atThreshold(xs, t).f1, 0) / Math.max(1, mixed.length);
    if (atThreshold(benign, t).fpr <= 0.02 && objective > best) {
      best = objective;
      threshold = Math.round(t * 100) / 100;
    }
  }
  log(`threshold ${threshold} (OOF macro F1 ${best.toFixed(4)} over ${mixed.length} sources)`);
  return { platt, threshold, bySource };
}
