/**
 * The MLP stage of the llm trainer: the network over encoder windows (trained here unless the
 * refit already did), calibrated on the calibration split as the n-grams are.
 */
import { applyIsotonic } from "../../src/guardrails/llm/isotonic.js";
import type { Mlp } from "../../src/guardrails/llm/mlp.js";
import { calibrate, roundUp, type ThresholdRules } from "./calibrate.js";
import { type FitContext, foldScorers, type Scorer, STACK_FOLDS } from "./cross-fit.js";
import type { Embedded } from "./embed.js";
import { dataInputOf, type Example, isData } from "./example.js";
import type { Featured } from "./items.js";
import { metricsAt, thresholdForPooledFpr } from "./metrics.js";
import type { Split } from "./split.js";
import { stackExample } from "./stack.js";
import { maxWindowLogit, trainStage } from "./stage-mlp.js";

export interface MlpStageInput {
  splits: Record<Split, Example[]>;
  embedded: Partial<Record<Split, Embedded[]>>;
  /** The training split's n-gram features, for the stacking folds' scorers. */
  featured: Featured[];
  fit: FitContext;
  /** The shipped n-gram scorer: the MLP's n-gram inputs on the calibration split. */
  scorer: Scorer;
  calibration: Example[];
  /** The MLP fitted on train + calibration, when refitting. */
  refitted?: Mlp;
  /** The calibration texts' out-of-fold raw scores, when refitting. */
  outOfFold?: (e: Example) => number;
  rules: ThresholdRules;
  members: number;
  log: (m: string) => void;
}

/** The MLP over encoder windows (trained here unless refitted), calibrated like the n-grams. */
export function fitMlpStage(o: MlpStageInput) {
  const { splits, fit, log } = o;
  const calEmbedded = o.embedded.calibration as Embedded[];
  const trained = o.refitted
    ? { mlp: o.refitted, epochs: fit.mlp.maxEpochs }
    : trainStage(
        splits.train,
        o.embedded.train as Embedded[],
        { examples: splits.calibration, embedded: calEmbedded, scorer: o.scorer },
        fit.family,
        STACK_FOLDS,
        foldScorers(o.featured, fit, fit.mlp.seed),
        fit.mlp,
        log,
        o.members,
      );
  const net = trained.mlp;
  const calEmb = new Map(splits.calibration.map((e, i) => [e, calEmbedded[i] as Embedded]));
  const raw =
    o.outOfFold ??
    ((e: Example) =>
      maxWindowLogit(
        net,
        stackExample(e, calEmb.get(e) as Embedded, o.scorer, dataInputOf(e, fit.mlp.dataInput)),
      ));
  const cal = calibrate(o.calibration, raw, o.rules, log);
  log(
    `MLP: ${trained.epochs} epochs; ${cal.isotonic.z.length} isotonic knots, ` +
      `threshold ${cal.threshold} (${o.rules.rule} rule)`,
  );
  logCalibrationSplit(o.calibration, (e) => applyIsotonic(cal.isotonic, raw(e)), cal.threshold, {
    outOfFold: o.outOfFold !== undefined,
    hidden: net.hidden,
    members: o.members,
    log,
  });
  const dataThreshold = fit.mlp.dataInput
    ? thresholdForData(o.calibration, (e) => applyIsotonic(cal.isotonic, raw(e)), o.rules, log)
    : undefined;
  const header = {
    input: net.input,
    hidden: net.hidden,
    vectorDim: 512,
    isotonic: cal.isotonic,
    threshold: cal.threshold,
    ...(fit.mlp.dataInput ? { dataInput: true } : {}),
    ...(dataThreshold === undefined ? {} : { dataThreshold }),
  };
  return { mlp: net, header, thresholds: cal.thresholds };
}

/** The figure changes are judged by, on the calibration split, before the test split is looked at. */
function logCalibrationSplit(
  calibration: Example[],
  scoreOf: (e: Example) => number,
  threshold: number,
  o: { outOfFold: boolean; hidden: number; members: number; log: (m: string) => void },
): void {
  const cal = calibration.map((e) => ({ label: e.label, score: scoreOf(e) }));
  const m = metricsAt(cal, threshold);
  o.log(
    `calibration split${o.outOfFold ? " (out of fold)" : ""} at the threshold: F1 ${(m.f1 ?? 0).toFixed(3)} recall ${(m.recall ?? 0).toFixed(3)} FPR ${(m.fpr ?? 0).toFixed(4)} ` +
      `recall@1%FPR ${(m.recallAt1Fpr ?? 0).toFixed(3)} ` +
      `AUC ${(m.auc ?? 0).toFixed(4)} (hidden ${o.hidden}, ${o.members} member(s))`,
  );
  const indirect = calibration.flatMap((e, i) =>
    e.kind === "indirect" ? [cal[i] as { score: number }] : [],
  );
  const caught = indirect.filter((r) => r.score >= threshold).length;
  o.log(`calibration split indirect recall: ${caught}/${indirect.length}`);
}

/**
 * The threshold for data (a tool result's content), by the pooled rule over the calibration
 * split's benign documents alone. One shared threshold, set where prompts dominate the benign
 * texts, flagged 30–42% of held-out clean e-mails and tables (round 2, training/README.md): a
 * document is long and full of imperatives to its reader, so its scores sit higher.
 */
function thresholdForData(
  calibration: Example[],
  scoreOf: (e: Example) => number,
  rules: ThresholdRules,
  log: (m: string) => void,
): number | undefined {
  const bySource = new Map<string, number[]>();
  let attacks = 0;
  for (const e of calibration) {
    if (!isData(e)) continue;
    if (e.label === 1) {
      attacks += 1;
      continue;
    }
    bySource.set(e.source, [...(bySource.get(e.source) ?? []), scoreOf(e)]);
  }
  const benign = [...bySource.values()].flat();
  if (benign.length === 0 || attacks === 0) {
    log("data threshold: no benign documents or no planted attacks in the calibration split; none set");
    return undefined;
  }
  const threshold = roundUp(thresholdForPooledFpr([...bySource.values()], rules.pooled));
  const caught = calibration.filter((e) => isData(e) && e.label === 1 && scoreOf(e) >= threshold).length;
  log(
    `data threshold ${threshold}: ${benign.filter((x) => x >= threshold).length}/${benign.length} benign documents, ` +
      `${caught}/${attacks} planted attacks over it (calibration split)`,
  );
  return threshold;
}
