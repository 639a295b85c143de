import { describe, expect, it } from "vitest";
import { mlpLogit } from "../../../src/guardrails/llm/mlp.js";
import { type MlpOptions, type Row, trainMlp } from "../../../training/llm/mlp-train.js";

/** A small separable problem: the label is the sign of the first input. */
function rows(count: number, offset: number): Row[] {
  return Array.from({ length: count }, (_, k) => {
    const x = Float32Array.from({ length: 6 }, (_, i) => Math.sin((k + offset) * 1.7 + i * 0.9));
    return { x, y: (x[0] as number) > 0 ? 1 : 0, weight: 1 };
  });
}

const base: MlpOptions = {
  hidden: 8,
  rate: 0.01,
  decay: 0,
  dropout: 0,
  batch: 8,
  maxEpochs: 6,
  patience: 100,
  seed: 5,
};

describe("trainMlp with weight averaging (averageFrom)", () => {
  it("runs every epoch and, averaging only the last, returns the last epoch's weights", () => {
    const train = rows(64, 0);
    const last = trainMlp(train, [], { ...base, averageFrom: base.maxEpochs });
    expect(last.epochs).toBe(base.maxEpochs);
    // Early stopping with patience 1 on rows that disagree with training stops before the end.
    const flipped = rows(32, 500).map((r): Row => ({ ...r, y: r.y === 1 ? 0 : 1 }));
    expect(trainMlp(train, flipped, { ...base, patience: 1 }).epochs).toBeLessThan(base.maxEpochs);
    const again = trainMlp(train, [], { ...base, averageFrom: base.maxEpochs });
    expect(Array.from(again.mlp.w1)).toEqual(Array.from(last.mlp.w1));
  });

  it("returns the mean of the epochs' weights, which still separates the classes", () => {
    const train = rows(64, 0);
    const last = trainMlp(train, [], { ...base, averageFrom: base.maxEpochs });
    const averaged = trainMlp(train, [], { ...base, averageFrom: 2 });
    expect(Array.from(averaged.mlp.w1)).not.toEqual(Array.from(last.mlp.w1));
    const test = rows(64, 1000);
    const correct = test.filter((r) => mlpLogit(averaged.mlp, r.x) > 0 === (r.y === 1)).length;
    expect(correct / test.length).toBeGreaterThan(0.85);
    expect(Number.isNaN(averaged.validLoss)).toBe(true); // no validation rows were given
  });
});
