import { describe, expect, it } from "vitest";
import { HashCounts } from "../../src/text/hash-counts.js";

describe("HashCounts", () => {
  it("counts as a Map does, keys in first-seen order, hashes ≥ 2³¹ and colliding slots included", () => {
    let state = 12345;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state;
    };
    // Few distinct keys drawn many times, so that most bumps find a key already there; keys that
    // differ only above the slot bits land in one slot and must be told apart.
    const pool = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? (next() & 0xffff0000) >>> 0 : next()));
    const drawn = Array.from({ length: 5000 }, () => pool[next() % pool.length] as number);
    const map = new Map<number, number>();
    const counts = new HashCounts(pool.length);
    for (const h of drawn) {
      map.set(h, (map.get(h) ?? 0) + 1);
      counts.bump(h);
    }
    expect(counts.size).toBe(map.size);
    expect([...counts.keys.subarray(0, counts.size)]).toEqual([...map.keys()]);
    expect([...counts.counts.subarray(0, counts.size)]).toEqual([...map.values()]);
  });

  it("refuses more distinct keys than it has room for", () => {
    const counts = new HashCounts(2);
    counts.bump(1);
    counts.bump(2);
    counts.bump(1);
    expect(() => counts.bump(3)).toThrow(RangeError);
  });
});
