import { describe, expect, it } from "vitest";
import {
  type Arithmetic,
  dot,
  fitDenseLogistic,
  type LogisticItem,
  trainLogistic,
  trainSoftmax,
} from "../../../training/lib/logistic.js";
import { fitPlatt } from "../../../training/lib/platt.js";
import { mulberry32 } from "../../../training/lib/random.js";

const DIM = 64;
/** A quarter positives: feature 1 marks them, feature 2 the negatives, plus one noise feature each. */
function problem(seed = 11): LogisticItem[] {
  const random = mulberry32(seed);
  return Array.from({ length: 200 }, (_, i) => {
    const y = (i % 4 === 0 ? 1 : 0) as 0 | 1;
    const index = Int32Array.of(y ? 1 : 2, 3 + Math.floor(random() * 60));
    return { x: { index, value: Float32Array.of(1, random()) }, y, weight: i % 3 === 0 ? 0.5 : 1 };
  });
}
const sum = (w: ArrayLike<number>) => Array.from(w).reduce((a, b) => a + b, 0);
const options = { dim: DIM, epochs: 3, rate: 0.2, l2: 1e-4, seed: 5 };
const MODERATION: Partial<Arithmetic> = { balanceClasses: false, epsilon: "after-root", bias: "first" };
const LEAK: Partial<Arithmetic> = { bias: "first", shuffle: "restart" };

describe("trainLogistic", () => {
  it("learns the marking features", () => {
    const m = trainLogistic(problem(), options);
    expect(m.weights[1]).toBeGreaterThan(1);
    expect(m.weights[2]).toBeLessThan(-1);
    const score = (x: LogisticItem["x"]) => dot(m.weights, x) + m.bias;
    for (const item of problem(12)) expect(score(item.x) > 0).toBe(item.y === 1);
  });

  // The sums the shipped models' trainers produced before they shared this function: a change here
  // changes every model a retrain writes.
  it("keeps each trainer's arithmetic to the last bit", () => {
    const pinned = (arithmetic: Partial<Arithmetic>) => {
      const m = trainLogistic(problem(), { ...options, arithmetic });
      return [m.bias, sum(m.weights)];
    };
    expect(pinned({})).toEqual([0.5767934412668853, -10.593529602909726]);
    expect(pinned(MODERATION)).toEqual([-0.25426679735206836, -10.535168200716944]);
    expect(pinned(LEAK)).toEqual([0.5804530862213994, -10.419823748063576]);
  });

  it("is deterministic for a seed, and the seed is the only randomness", () => {
    const a = trainLogistic(problem(), options);
    expect(trainLogistic(problem(), options)).toEqual(a);
    expect(trainLogistic(problem(), { ...options, seed: 6 }).weights).not.toEqual(a.weights);
  });

  it("masks hashed indices to the table", () => {
    const hashed = problem().map((item) => ({
      ...item,
      x: { index: Uint32Array.from(item.x.index, (j) => j + DIM * 1000 + 0x80000000), value: item.x.value },
    }));
    expect(trainLogistic(hashed, options)).toEqual(trainLogistic(problem(), options));
  });

  it("balances the classes unless told not to", () => {
    // One shared feature, 1 positive in 10: balanced, its logit settles near 0; unbalanced, below.
    const items = Array.from({ length: 400 }, (_, i) => ({
      x: { index: Int32Array.of(0), value: Float32Array.of(1) },
      y: (i % 10 === 0 ? 1 : 0) as 0 | 1,
      weight: 1,
    }));
    const logit = (balanceClasses: boolean) => {
      const m = trainLogistic(items, { ...options, epochs: 20, arithmetic: { balanceClasses } });
      return (m.weights[0] as number) + m.bias;
    };
    expect(Math.abs(logit(true))).toBeLessThan(0.5);
    expect(logit(false)).toBeLessThan(-1.5);
  });
});

describe("trainSoftmax", () => {
  it("learns one row per class, and keeps its arithmetic", () => {
    const items = problem().map((item, i) => ({ ...item, y: i % 3 }));
    const m = trainSoftmax(items, 3, options);
    expect(m.weights).toHaveLength(DIM * 3);
    expect([sum(m.bias), sum(m.weights)]).toEqual([-0.3344471289625854, -30.818480757780442]);
  });
});

describe("fitDenseLogistic", () => {
  it("fits a few dense features, deterministically", () => {
    const x = Array.from({ length: 100 }, (_, i) => [Math.sin(i), Math.cos(i * 3)]);
    const y = x.map((r) => ((r[0] as number) > 0.2 ? 1 : 0));
    const fit = fitDenseLogistic(x, y, 1e-4);
    expect(fit.weights[0]).toBeGreaterThan(10);
    expect([fit.bias, ...fit.weights]).toEqual([-3.874033155704205, 17.76396426471837, -0.2972868203075711]);
  });
});

describe("fitPlatt", () => {
  const items = problem();
  const z = items.map((item, i) => (item.y ? 1 : -1) + Math.sin(i));
  const labels = items.map((item) => item.y);

  it("orders like its input, and keeps both trainers' arithmetic", () => {
    expect(fitPlatt(z, labels)).toEqual({ a: 5.997874530667221, b: -0.8995003373743038 });
    expect(fitPlatt(z, labels, { balanceClasses: true, prior: 0.1, tolerance: 1e-10 })).toEqual({
      a: 5.633705929328312,
      b: -2.336362867109705,
    });
  });

  it("moves b by the prior's log-odds and nothing else", () => {
    const even = fitPlatt(z, labels, { balanceClasses: true });
    const tenth = fitPlatt(z, labels, { balanceClasses: true, prior: 0.1 });
    expect(tenth.a).toBe(even.a);
    expect(tenth.b - even.b).toBeCloseTo(Math.log(1 / 9), 12);
  });
});
