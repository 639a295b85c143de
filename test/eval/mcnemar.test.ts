import { describe, expect, it } from "vitest";
import { mcnemar, mcnemarExact } from "../../src/eval/mcnemar.js";

// The same sum with exact integers: the reference the log-space version must agree with.
function exactByBigInt(b: number, c: number): number {
  const n = BigInt(b + c);
  let term = 1n;
  let sum = 1n;
  for (let k = 1n; k <= BigInt(Math.min(b, c)); k++) {
    term = (term * (n - k + 1n)) / k;
    sum += term;
  }
  const scale = 10n ** 30n;
  return Math.min(1, Number((2n * sum * scale) / 2n ** n) / 1e30);
}

describe("the exact McNemar test", () => {
  it("is 1 with no discordant rows, or as many each way", () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(7, 7)).toBe(1);
    expect(mcnemarExact(1, 2)).toBe(1);
  });

  it("matches hand-computed binomial tails", () => {
    // 2 · (1 + 9) / 1024
    expect(mcnemarExact(1, 9)).toBeCloseTo(0.021484375, 12);
    // 2 / 2^6: every discordant row went one way
    expect(mcnemarExact(0, 6)).toBeCloseTo(0.03125, 12);
    // 2 · (1 + 5 + 10) / 32 = 1 exactly, capped
    expect(mcnemarExact(2, 3)).toBe(1);
    // 2 · (1 + 4) / 16
    expect(mcnemarExact(1, 3)).toBeCloseTo(0.625, 12);
  });

  it("agrees with an exact integer computation for b=10, c=20 and others", () => {
    // R: binom.test(10, 30)$p.value = 0.09873715
    expect(mcnemarExact(10, 20)).toBeCloseTo(0.0987371467, 9);
    for (const [b, c] of [
      [10, 20],
      [3, 17],
      [40, 61],
      [120, 80],
      [0, 30],
    ] as const) {
      expect(mcnemarExact(b, c)).toBeCloseTo(exactByBigInt(b, c), 12);
    }
  });

  it("is symmetric in b and c", () => {
    for (const [b, c] of [
      [1, 9],
      [10, 20],
      [250, 301],
    ] as const)
      expect(mcnemarExact(b, c)).toBe(mcnemarExact(c, b));
  });

  it("stays finite and exact for thousands of discordant rows", () => {
    const p = mcnemarExact(2450, 2550);
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeCloseTo(exactByBigInt(2450, 2550), 10);
    expect(mcnemarExact(2500, 2500)).toBe(1);
    // Far in the tail: tiny but not NaN, and 0 only where a double cannot hold it.
    const tail = mcnemarExact(100, 4900);
    expect(Number.isNaN(tail)).toBe(false);
    expect(tail).toBeGreaterThanOrEqual(0);
    expect(tail).toBeLessThan(1e-300);
  });

  it("refuses counts that are not whole numbers", () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });

  it("names its counts as the summary prints them", () => {
    expect(mcnemar(1, 9)).toEqual({ b: 1, c: 9, p_value: expect.closeTo(0.021484375, 12) });
  });
});
