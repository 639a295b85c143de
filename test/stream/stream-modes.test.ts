// The stream guard's modes (docs/streaming.md): when text is released, how often it is checked,
// and that each ends on the one-shot verdict of the whole response.
import { describe, expect, it } from "vitest";
import {
  type CheckEvent,
  guardStream,
  STREAM_MODES,
  type StreamMode,
} from "../../src/stream/guard-stream.js";
import { blocked, collect, fakeCheck, source } from "./helpers.js";

/** `n` sentences as chunks of one word each. */
const sentences = (n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} has a few more words in it. `.split(/(?<= )/)).flat();

describe("stream modes", () => {
  it.each(STREAM_MODES)(
    "%s: releases the whole response and ends on a check of all of it, alone",
    async (mode) => {
      const { check, calls } = fakeCheck(/BAD/);
      const chunks = sentences(8);
      const finals: CheckEvent[] = [];
      const onCheck = (e: CheckEvent) => (e.final ? finals.push(e) : 0);
      const out = await collect(
        guardStream(check, source(chunks, { everyMs: 1 }).iterable, { mode, prompt: "Hi", onCheck }),
      );
      expect(out.join("")).toBe(chunks.join(""));
      // The one-shot request: the whole text, the prompt, no context.
      expect(calls.at(-1)).toEqual({ message: chunks.join(""), prompt: "Hi" });
      expect(finals).toHaveLength(1);
    },
  );

  it("chunk: checks every chunk before it is released and stops at the one that flags", async () => {
    const { check, calls } = fakeCheck(/BAD/, 0);
    const chunks = [...sentences(3), "and ", "this ", "is ", "BAD ", "more "];
    const { iterable, returned } = source(chunks, { everyMs: 5 });
    const error = await blocked(guardStream(check, iterable, { mode: "chunk" }));
    // A check per chunk (each arrives after the last check answered), none after the flag.
    expect(calls.map((c) => c.message)).toEqual(chunks.slice(0, chunks.indexOf("BAD ") + 1));
    expect(error.final).toBe(false);
    expect(error.released).not.toContain("BAD");
    expect(returned).toHaveBeenCalledOnce();
  });

  it("final: yields each chunk as it arrives, checks once at the end, and flags after the fact", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const chunks = ["Fine so far. ", "Then BAD ", "words. "];
    const seen: number[] = [];
    const stream = guardStream(check, source(chunks, { everyMs: 1 }).iterable, { mode: "final" });
    const error = await blocked(
      (async function* () {
        for await (const piece of stream) {
          seen.push(calls.length);
          yield piece;
        }
      })(),
    );
    expect(seen).toEqual([0, 0, 0]); // every chunk out before any check
    expect(calls).toEqual([{ message: chunks.join("") }]);
    expect(error.final).toBe(true);
    expect(error.released).toBe(chunks.join(""));
    expect(error.response.checks.keyword.matched).toEqual(["BAD"]);
  });

  it("sentence: checkIntervalMs spaces the checks out, releasing the same text", async () => {
    const chunks = sentences(30);
    const count = async (options: { checkIntervalMs?: number }) => {
      const { check, calls } = fakeCheck(/BAD/);
      const out = await collect(guardStream(check, source(chunks, { everyMs: 2 }).iterable, options));
      expect(out.join("")).toBe(chunks.join(""));
      return calls.length;
    };
    const every = await count({ checkIntervalMs: 0 });
    const spaced = await count({ checkIntervalMs: 60 });
    expect(spaced).toBeLessThan(every / 2);
  });

  it("sentence: a flag still stops the stream while a check waits for checkIntervalMs", async () => {
    const { check } = fakeCheck(/BAD/);
    const chunks = [...sentences(4), "Now BAD ", "and more. ", ...sentences(4)];
    const error = await blocked(
      guardStream(check, source(chunks, { everyMs: 1 }).iterable, { checkIntervalMs: 20 }),
    );
    expect(error.final).toBe(false);
    expect(error.released).not.toContain("BAD");
  });

  it("refuses a mode it does not know", async () => {
    const { check } = fakeCheck(/BAD/);
    const mode = "every-token" as StreamMode;
    await expect(collect(guardStream(check, ["hello"], { mode }))).rejects.toThrow(
      'unknown stream mode "every-token": chunk, sentence or final',
    );
  });
});
