/**
 * One leave-one-source-out step: the model is trained on every other source exactly as train.ts
 * trains the shipped one (both signals' heads, their Platt scaling and the verdict threshold from
 * out-of-fold scores) and then scores the held-out source, which no step saw.
 */
import { calibrate as calibrated } from "../../src/guardrails/content-moderation/model/model.js";
import { calibrate, outOfFoldLogits, verdictScore } from "./calibrate.js";
import type { Vectors } from "./embed-cache.js";
import type { Signal } from "./example.js";
import { cachedRawScore, type HeadOptions, trainHeads } from "./heads.js";
import type { Row } from "./splits.js";

export interface HeldOutScore {
  readonly label: 0 | 1;
  /** The verdict's score and each signal's calibrated probability. */
  readonly verdict: number;
  readonly signals: Readonly<Record<Signal, number>>;
}

export interface HeldOutResult {
  readonly threshold: number;
  readonly scores: HeldOutScore[];
  /** With `int8`: the same rows scored on the int8 encoder's vectors by the same fp32-fitted model. */
  readonly int8Scores?: HeldOutScore[];
}

/** The rows of `held` and the rows of every other source (GPTFuzz test questions have no fold). */
export function holdOut(rows: readonly Row[], held: string): { train: Row[]; test: Row[] } {
  return {
    train: rows.filter((r) => r.source !== held && r.fold >= 0),
    test: rows.filter((r) => r.source === held),
  };
}

export function scoreHeldOut(
  rows: readonly Row[],
  held: string,
  options: HeadOptions,
  vectors?: Vectors,
  int8?: Vectors,
): HeldOutResult {
  const { train, test } = holdOut(rows, held);
  const quiet = () => {};
  const calibration = calibrate(outOfFoldLogits(train, options, vectors, quiet), !!vectors, quiet);
  const params = trainHeads(train, null, options, vectors);
  const score = (on?: Vectors) =>
    test.map((r): HeldOutScore => {
      const { signals } = cachedRawScore(params, r.text, on);
      return {
        label: r.label ?? 0,
        verdict: verdictScore(signals, calibration.platt),
        signals: {
          toxic: calibrated(signals.toxic, calibration.platt.toxic),
          compliance: calibrated(signals.compliance, calibration.platt.compliance),
        },
      };
    });
  return {
    threshold: calibration.threshold,
    scores: score(vectors),
    ...(int8 ? { int8Scores: score(int8) } : {}),
  };
}
