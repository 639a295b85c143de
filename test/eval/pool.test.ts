import { describe, expect, it } from "vitest";
import { orderedMap, startPool } from "../../src/eval/pool.js";

const script = new URL("../fixtures/batch/echo-worker.ts", import.meta.url);

async function* numbers(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

describe("worker pool", () => {
  it("answers every task on worker threads and orderedMap keeps input order", async () => {
    const pool = await startPool<{ n: number }, { n: number; tag: string }>(script, 2, { tag: "w" });
    try {
      const seen: number[] = [];
      for await (const result of orderedMap(numbers(40), 4, (n) => pool.run({ n }))) seen.push(result.n);
      expect(seen).toEqual([...Array(40).keys()]);
    } finally {
      await pool.close();
    }
  });

  it("rejects a failed task without breaking the pool", async () => {
    const pool = await startPool<{ n: number; fail?: boolean }, { n: number }>(script, 1, { tag: "w" });
    try {
      await expect(pool.run({ n: 1, fail: true })).rejects.toThrow("task 1 failed");
      await expect(pool.run({ n: 2 })).resolves.toMatchObject({ n: 2 });
    } finally {
      await pool.close();
    }
  });

  it("fails to start when a worker cannot initialise", async () => {
    await expect(startPool(script, 2, { tag: "w", fatal: true })).rejects.toThrow("cannot load the model");
  });

  it("orderedMap holds back a slow result but not later work", async () => {
    const started: number[] = [];
    const delays = [30, 1, 1, 1];
    const out: number[] = [];
    for await (const n of orderedMap(numbers(4), 4, async (n) => {
      started.push(n);
      await new Promise((r) => setTimeout(r, delays[n]));
      return n;
    })) {
      out.push(n);
      if (n === 0) expect(started).toEqual([0, 1, 2, 3]);
    }
    expect(out).toEqual([0, 1, 2, 3]);
  });
});
