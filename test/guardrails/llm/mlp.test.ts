import { describe, expect, it } from "vitest";
import { type Mlp, mlpLogit } from "../../../src/guardrails/llm/mlp.js";

/** The plain loop mlpLogit unrolls: one product added at a time, in input order. */
function reference(m: Mlp, x: Float32Array): number {
  let z = m.b2;
  for (let h = 0; h < m.hidden; h++) {
    let a = m.b1[h] as number;
    for (let i = 0; i < m.input; i++) a += (m.w1[h * m.input + i] as number) * (x[i] as number);
    if (a > 0) z += a * (m.w2[h] as number);
  }
  return z;
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

describe("mlpLogit", () => {
  it("equals the plain loop bit for bit, whatever the input width's remainder by four", () => {
    const random = seeded(7);
    for (const input of [1, 3, 4, 5, 6, 7, 528, 531]) {
      const hidden = 9;
      const m: Mlp = {
        input,
        hidden,
        w1: Float32Array.from({ length: input * hidden }, random),
        b1: Float32Array.from({ length: hidden }, random),
        w2: Float32Array.from({ length: hidden }, random),
        b2: random(),
      };
      for (let k = 0; k < 20; k++) {
        const x = Float32Array.from({ length: input }, random);
        expect(mlpLogit(m, x), `input ${input}`).toBe(reference(m, x));
      }
    }
  });
});
