import { describe, expect, it } from "vitest";
import { parseShard, shardRange } from "../../src/eval/shard.js";

describe("shardRange", () => {
  it("splits the rows into disjoint ranges that cover them all, in order", () => {
    for (const total of [0, 1, 2, 7, 63, 100, 1_000_003]) {
      for (const count of [1, 2, 3, 4, 7, 64]) {
        let next = 0;
        for (let index = 0; index < count; index++) {
          const { from, to } = shardRange({ index, count }, total);
          expect(from).toBe(next);
          expect(to - from).toBeGreaterThanOrEqual(Math.floor(total / count));
          expect(to - from).toBeLessThanOrEqual(Math.ceil(total / count));
          next = to;
        }
        expect(next).toBe(total);
      }
    }
  });
});

describe("parseShard", () => {
  it("reads i/n counted from 0", () => {
    expect(parseShard("0/4")).toEqual({ index: 0, count: 4 });
    expect(parseShard(" 3/4 ")).toEqual({ index: 3, count: 4 });
  });

  it.each([
    ["4/4", /counted from 0/],
    ["1/0", /must be from 1/],
    ["1/10001", /must be from 1 to 10000/],
    ["-1/4", /is not i\/n/],
    ["1", /is not i\/n/],
    ["1.5/4", /is not i\/n/],
  ])("says what is wrong with %s", (text, message) => {
    expect(parseShard(text)).toMatch(message);
  });
});
