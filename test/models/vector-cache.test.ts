import { describe, expect, it } from "vitest";
import { withVectorCache } from "../../src/models/vector-cache.js";
import { fakeEncoder } from "../helpers/fake-encoder.js";

describe("withVectorCache", () => {
  it("embeds only texts it has not seen, once each, and answers in the caller's order", async () => {
    const inner = fakeEncoder();
    const cached = withVectorCache(inner);
    const first = await cached.embed(["a b c", "d e f", "a b c"]);
    const second = await cached.embed(["d e f", "g h i", "a b c"]);
    expect(inner.calls).toEqual([["a b c", "d e f"], ["g h i"]]);
    expect(second[0]).toBe(first[1]);
    expect(second[2]).toBe(first[0]);
    expect(Array.from(second[1] ?? [])).toEqual(Array.from((await inner.embed(["g h i"]))[0] ?? []));
  });

  it("forgets the least recently used text first when full", async () => {
    const inner = fakeEncoder();
    const cached = withVectorCache(inner, 2);
    await cached.embed(["one", "two"]);
    await cached.embed(["one"]); // "one" is now the most recently used
    await cached.embed(["three"]); // evicts "two"
    inner.calls.length = 0;
    await cached.embed(["one", "three", "two"]);
    expect(inner.calls).toEqual([["two"]]);
  });

  it("passes the encoder's shape and an abort through, and caches nothing from a failed call", async () => {
    const inner = fakeEncoder();
    const cached = withVectorCache(inner);
    expect([cached.dim, cached.maxTokens, cached.countTokens("abcd")]).toEqual([inner.dim, 128, 1]);
    const failing = withVectorCache({ ...inner, embed: () => Promise.reject(new Error("aborted")) });
    await expect(failing.embed(["x"])).rejects.toThrow("aborted");
    await expect(failing.embed(["x"])).rejects.toThrow("aborted");
  });
});
