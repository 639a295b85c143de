import { existsSync, mkdtempSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openVectorCache } from "../../../training/lib/vector-cache.js";

const DIM = 3;
/** A fake encoder: each text's windows are its words, each word's vector its length and codes. */
const vectorsOf = (text: string) =>
  text.split(" ").map((w) => Float32Array.of(w.length, w.charCodeAt(0), w.charCodeAt(w.length - 1)));

const dirs: string[] = [];
const tempStem = () => {
  const dir = mkdtempSync(join(tmpdir(), "vector-cache-"));
  dirs.push(dir);
  return join(dir, "sub", "cache-test");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("openVectorCache", () => {
  it("lists the missing texts once each, in first-seen order", async () => {
    const cache = openVectorCache(DIM);
    await cache.fill(["b"], 10, async (texts) => texts.map(vectorsOf));
    expect(cache.missing(["c", "a", "b", "c", "a"])).toEqual(["c", "a"]);
  });

  it("embeds in chunks of the given size, in order", async () => {
    const cache = openVectorCache(DIM);
    const calls: string[][] = [];
    const texts = ["a", "bb", "c c", "dd d", "e"];
    await cache.fill(texts, 2, async (chunk) => {
      calls.push(chunk);
      return chunk.map(vectorsOf);
    });
    expect(calls).toEqual([["a", "bb"], ["c c", "dd d"], ["e"]]);
    expect(cache.size).toBe(5);
    expect(cache.get("dd d")).toEqual(vectorsOf("dd d"));
    expect(cache.get("zz")).toBeUndefined();
  });

  it("keeps lists of different lengths on disk, and reads back the same vectors", async () => {
    const stem = tempStem();
    const first = openVectorCache(DIM, stem);
    const texts = ["one", "two words", "three short words", "pi 3.14159"];
    const progress: string[] = [];
    await first.fill(
      texts,
      3,
      async (chunk) => chunk.map(vectorsOf),
      (done, total) => progress.push(`${done}/${total}`),
    );
    expect(progress).toEqual(["3/4", "4/4"]);
    expect(existsSync(`${stem}.json`) && existsSync(`${stem}.f32`)).toBe(true);
    const second = openVectorCache(DIM, stem);
    expect(second.size).toBe(4);
    expect(second.missing(texts)).toEqual([]);
    for (const t of texts) expect(second.get(t)).toEqual(vectorsOf(t));
    // Adding to a read cache keeps what was there.
    await second.fill(["four"], 10, async (chunk) => chunk.map(vectorsOf));
    expect(openVectorCache(DIM, stem).size).toBe(5);
  });

  it("starts empty when its files do not agree", async () => {
    const stem = tempStem();
    await openVectorCache(DIM, stem).fill(["a b", "c"], 10, async (chunk) => chunk.map(vectorsOf));
    truncateSync(`${stem}.f32`, 4);
    expect(openVectorCache(DIM, stem).size).toBe(0);
  });

  it("writes nothing without a stem, nor when nothing was missing", async () => {
    const stem = tempStem();
    const cache = openVectorCache(DIM, stem);
    await cache.fill([], 10, async () => {
      throw new Error("not called");
    });
    expect(existsSync(`${stem}.json`)).toBe(false);
  });
});
