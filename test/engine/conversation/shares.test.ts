import { describe, expect, it } from "vitest";
import { gatheredVectors } from "../../../src/engine/conversation/gathered-vectors.js";
import { shares } from "../../../src/engine/conversation/shares.js";
import { fakeEncoder } from "../../helpers/fake-encoder.js";

describe("shares", () => {
  it("splits a budget by length, one more for each of the latest texts", () => {
    expect(shares([100, 100], 64)).toEqual([33, 33]);
    expect(shares([1000, 10], 64)).toEqual([64, 1]);
    expect(shares([], 64)).toEqual([]);
  });

  it("never adds up to more than twice the budget, however many texts", () => {
    for (const n of [1, 10, 64, 65, 256, 512]) {
      const lengths = Array.from({ length: n }, (_, i) => 50 + ((i * 37) % 400));
      const sum = shares(lengths, 64).reduce((a, b) => a + b, 0);
      expect(sum).toBeLessThanOrEqual(128);
      expect(shares(lengths, 64).at(-1)).toBeGreaterThan(0);
    }
  });
});

describe("gatheredVectors", () => {
  it("sends the texts asked for in one turn as one call, each distinct text once", async () => {
    const inner = fakeEncoder();
    const encoder = gatheredVectors(inner);
    const [a, b, c] = await Promise.all([
      encoder.embed(["one", "two"]),
      encoder.embed(["two", "three"]),
      encoder.embed(["one"]),
    ]);
    expect(inner.calls).toEqual([["one", "two", "three"]]);
    expect(a?.[1]).toBe(b?.[0]);
    expect(c?.[0]).toBe(a?.[0]);
    // Later turns make later calls, of what is new only.
    await encoder.embed(["three", "four"]);
    expect(inner.calls).toEqual([["one", "two", "three"], ["four"]]);
  });
});
