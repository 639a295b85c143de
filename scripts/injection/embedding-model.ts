import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { denseItems, maxDenseLogit } from "./dense.js";
import { type Embedded, embedExamples } from "./embed.js";
import type { Example } from "./example.js";
import { fitPlatt, type LinearModel, sigmoid, trainLogistic } from "./logistic.js";
import type { Split } from "./split.js";

export interface EmbeddingModel {
  model: LinearModel;
  platt: { a: number; b: number };
  /** Calibrated probability per example of each split, in split order. */
  scores: Record<Split, number[]>;
}

/**
 * Logistic regression over USE-lite sentence embeddings (max over the encoder's windows),
 * Platt-scaled on the calibration split: the second model measured against the n-grams.
 */
export async function trainEmbeddingModel(
  splits: Record<Split, Example[]>,
  seed: number,
): Promise<EmbeddingModel> {
  const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
  const embedded = {} as Record<Split, Embedded[]>;
  for (const split of Object.keys(splits) as Split[])
    embedded[split] = await embedExamples(splits[split], encoder);
  await encoder.close();
  const train = splits.train.map((e, i) => ({ label: e.label, e: embedded.train[i] as Embedded }));
  const options = { dim: 512, epochs: 20, rate: 0.05, l2: 1e-5, seed };
  const first = trainLogistic(denseItems(train, seed), options);
  const model = trainLogistic(denseItems(train, seed, first), options);
  const raw = (split: Split) => embedded[split].map((e) => maxDenseLogit(e, model));
  const calibration = raw("calibration");
  const keep = splits.calibration.map((e) => e.kind !== "harmful-plain");
  const platt = fitPlatt(
    calibration.filter((_, i) => keep[i]),
    splits.calibration.filter((_, i) => keep[i]).map((e) => e.label),
    0.1,
  );
  const calibrate = (zs: number[]) => zs.map((z) => sigmoid(platt.a * z + platt.b));
  return {
    model,
    platt,
    scores: {
      train: [],
      calibration: calibrate(calibration),
      test: calibrate(raw("test")),
      heldout: calibrate(raw("heldout")),
    },
  };
}
