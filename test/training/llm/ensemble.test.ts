import { describe, expect, it } from "vitest";
import { type Mlp, mlpLogit } from "../../../src/guardrails/llm/mlp.js";
import { averageMlps } from "../../../training/llm/stage-mlp.js";

const net = (seed: number, input = 5, hidden = 3): Mlp => {
  const r = (k: number) => Math.sin(seed * 97 + k * 13.7);
  return {
    input,
    hidden,
    w1: Float32Array.from({ length: input * hidden }, (_, k) => r(k)),
    b1: Float32Array.from({ length: hidden }, (_, k) => r(100 + k) * 0.1),
    w2: Float32Array.from({ length: hidden }, (_, k) => r(200 + k)),
    b2: r(300),
  };
};

describe("averageMlps", () => {
  it("is one wider network whose logit is the members' mean logit", () => {
    const members = [net(1), net(2), net(3)];
    const avg = averageMlps(members);
    expect(avg.hidden).toBe(9);
    for (let t = 0; t < 5; t++) {
      const x = Float32Array.from({ length: 5 }, (_, i) => Math.cos(t * 3 + i));
      const mean = members.reduce((s, m) => s + mlpLogit(m, x), 0) / members.length;
      expect(mlpLogit(avg, x)).toBeCloseTo(mean, 5);
    }
  });

  it("returns a single network unchanged", () => {
    const one = net(4);
    expect(averageMlps([one])).toBe(one);
  });
});
