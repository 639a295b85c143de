import { describe, expect, it, vi } from "vitest";
import {
  type CheckEvent,
  type GuardStreamOptions,
  guardStream,
  type OutputCheckFn,
} from "../../src/stream/guard-stream.js";
import { blocked, body, collect, fakeCheck, source } from "./helpers.js";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i} `);
/** `n` sentences as chunks of one word each. */
const sentences = (n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} has a few more words in it. `.split(/(?<= )/)).flat();
/** A check for every chunk, text released word by word: the mechanics under the defaults. */
const perChunk = { checkChars: 0, sentenceHoldChars: 0 } as const;

describe("guardStream", () => {
  it("yields the whole response once it passes, and checks it whole at the end with the prompt", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const chunks = sentences(12);
    const events: boolean[] = [];
    const out = await collect(
      guardStream(check, source(chunks, { everyMs: 1 }).iterable, {
        prompt: "Hi",
        onCheck: (e) => events.push(e.final),
      }),
    );
    expect(out.join("")).toBe(chunks.join(""));
    expect(calls.at(-1)).toEqual({ message: chunks.join(""), prompt: "Hi" });
    expect(events.at(-1)).toBe(true);
    expect(events.slice(0, -1).every((final) => !final)).toBe(true);
    // Released as checks pass, not only at the end.
    expect(out.length).toBeGreaterThan(1);
  });

  it("sends each chunk with the text before it as context, at most tailChars of it", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    await collect(
      guardStream(check, source(["abc", "defg", "hij", "k"], { everyMs: 1 }).iterable, {
        ...perChunk,
        tailChars: 5,
      }),
    );
    const chunkCalls = calls.slice(0, -1);
    expect(chunkCalls[0]).toEqual({ message: "abc" });
    for (const call of chunkCalls.slice(1)) expect(call.context?.length).toBeLessThanOrEqual(5);
    expect("abcdefghijk".startsWith(chunkCalls.map((c) => c.message).join(""))).toBe(true);
  });

  it("keeps one check in flight, sending what arrives meanwhile together in the next", async () => {
    const { check, calls, maxInFlight } = fakeCheck(/BAD/, 30);
    const chunks = words(30);
    const out = await collect(guardStream(check, source(chunks, { everyMs: 2 }).iterable, perChunk));
    expect(out.join("")).toBe(chunks.join(""));
    expect(maxInFlight()).toBe(1);
    expect(calls.length).toBeLessThan(chunks.length / 2);
    expect(calls.slice(0, -1).some((c) => c.message.split(" ").length > 3)).toBe(true);
  });

  it("stops at a flag: throws with the body and what was released, and calls the source's return()", async () => {
    const { check } = fakeCheck(/BAD/);
    const { iterable, returned } = source(["hello there ", "this is BAD", " and more"], {
      forever: true,
      everyMs: 1,
    });
    const error = await blocked(guardStream(check, iterable, { ...perChunk, holdBackChars: 0 }));
    expect(error.response.checks.keyword).toEqual({ enabled: true, detected: true, matched: ["BAD"] });
    expect(error.released).toBe("hello there ");
    expect(error.final).toBe(false);
    expect(returned).toHaveBeenCalledOnce();
  });

  it("holds back a tail, so a card number completed by a later chunk is never half out", async () => {
    const card = /4111 1111 1111 1111/;
    const chunks = ["Sure, your card number is 4111 1111", " 1111 1111. Anything else?"];
    const run = (options: GuardStreamOptions) =>
      blocked(guardStream(fakeCheck(card).check, source(chunks, { everyMs: 1 }).iterable, options));
    expect((await run({ ...perChunk, holdBackChars: 0 })).released).toContain("4111");
    expect((await run(perChunk)).released).not.toContain("4111");
    expect((await run({})).released).not.toContain("4111");
  });

  it("releases the held-back tail at the end, after the final check", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const seen: number[] = [];
    const stream = guardStream(check, source(["short ", "answer"], { everyMs: 1 }).iterable);
    for await (const piece of stream) seen.push(calls.length, piece.length);
    expect(seen).toEqual([calls.length, "short answer".length]);
    expect(calls.at(-1)?.message).toBe("short answer");
  });

  it("gives the one-shot verdict: flags what only the whole response shows", async () => {
    // Flags two or more "bad": no chunk check sees both through a 5-character context.
    const check: OutputCheckFn = async (message, { context }) =>
      body(((context ?? "") + message).split("bad").length > 2);
    const chunks = ["one bad ", "then lots of filler ", "and another bad end"];
    const error = await blocked(
      guardStream(check, source(chunks, { everyMs: 1 }).iterable, { tailChars: 5 }),
    );
    expect(error.final).toBe(true);
    expect(error.response).toEqual(await check(chunks.join(""), {}));
  });

  it("reads OpenAI-style chat completion chunks, skipping those without content", async () => {
    const { check } = fakeCheck(/BAD/);
    const chunks = [
      { choices: [{ delta: { role: "assistant" } }] },
      { choices: [{ delta: { content: "Hello" } }] },
      { choices: [] },
      { choices: [{ delta: { content: null } }] },
      { choices: [{ delta: { content: ", world" } }] },
    ];
    expect((await collect(guardStream(check, source(chunks).iterable))).join("")).toBe("Hello, world");
  });

  it("decodes a ReadableStream of bytes split inside characters, and cancels it on a flag", async () => {
    const text = "Grüße 😀 from Zürich — BAD ending";
    const bytes = new TextEncoder().encode(text);
    const cancel = vi.fn();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
      cancel,
    });
    const { check, calls } = fakeCheck(/BAD/);
    const error = await blocked(guardStream(check, stream, { ...perChunk, holdBackChars: 0 }));
    expect(calls.map((c) => c.message).join("")).toBe(text.slice(0, text.indexOf("BAD") + 3));
    expect(calls.every((c) => !c.message.includes("\uFFFD"))).toBe(true);
    expect(text.startsWith(error.released)).toBe(true);

    const clean = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 5));
        controller.enqueue(bytes.slice(5));
        controller.close();
      },
    });
    const passing = fakeCheck(/NOTHING/);
    expect((await collect(guardStream(passing.check, clean))).join("")).toBe(text);
    expect(cancel).toHaveBeenCalledOnce();
  });

  it("calls the source's return() and aborts the check in flight when the consumer breaks", async () => {
    const signals: AbortSignal[] = [];
    const check: OutputCheckFn = async (_m, { signal }) => {
      if (signal) signals.push(signal);
      await new Promise((r) => setTimeout(r, 5));
      return body(false);
    };
    const { iterable, returned } = source(words(10), { forever: true, everyMs: 1 });
    for await (const _piece of guardStream(check, iterable, { holdBackChars: 0 })) break;
    expect(returned).toHaveBeenCalledOnce();
    expect(signals.at(-1)?.aborted).toBe(true);
  });

  it("stops when the caller's signal aborts", async () => {
    const { check } = fakeCheck(/BAD/);
    const { iterable, returned } = source(words(5), { forever: true, everyMs: 2 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 30);
    await expect(collect(guardStream(check, iterable, { signal: controller.signal }))).rejects.toThrow(
      "user left",
    );
    expect(returned).toHaveBeenCalledOnce();
  });

  it("keeps every check within maxCheckChars, the final one in pieces past it, and splits no surrogate pair", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const text = "😀ab".repeat(30);
    const finals: string[] = [];
    const onCheck = (e: CheckEvent) => (e.final ? finals.push(e.message) : 0);
    const options = { maxCheckChars: 20, tailChars: 7, onCheck };
    const chunks = ["\uD83D", text.slice(1, 50), text.slice(50)];
    const out = await collect(guardStream(check, source(chunks, { everyMs: 1 }).iterable, options));
    expect(out.join("")).toBe(text);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const call of calls) {
      expect(call.message.length + (call.context?.length ?? 0)).toBeLessThanOrEqual(20);
      expect(call.message).not.toMatch(lone);
      expect(call.context ?? "").not.toMatch(lone);
    }
    expect(finals.join("")).toBe(text);
    expect(finals.length).toBeGreaterThan(1);
  });

  it("releases whole sentences, each once 64 characters past its end have passed", async () => {
    const { check } = fakeCheck(/BAD/);
    const chunks = sentences(12);
    const text = chunks.join("");
    const out = await collect(guardStream(check, source(chunks, { everyMs: 1 }).iterable));
    expect(out.join("")).toBe(text);
    expect(out.length).toBeGreaterThan(2);
    // Every piece but the last (released after the final check) ends where a sentence starts.
    for (const piece of out.slice(0, -1)) expect(piece).toMatch(/\. $/);
  });

  it("releases a run-on line with no sentence end in word steps once it passes sentenceHoldChars", async () => {
    const { check } = fakeCheck(/BAD/);
    const chunks = words(150);
    const out = await collect(guardStream(check, source(chunks, { everyMs: 1 }).iterable));
    expect(out.join("")).toBe(chunks.join(""));
    expect(out.length).toBeGreaterThan(1);
    expect((out[0] as string).length).toBeGreaterThanOrEqual(400 - 64);
    for (const piece of out.slice(0, -1)) expect(piece).toMatch(/ $/);
  });

  it("sends a check when passing would release text or 256 characters wait unchecked, not per chunk", async () => {
    const chunks = sentences(20);
    const text = chunks.join("");
    const sentenceCount = 20;
    const byDefault = fakeCheck(/BAD/);
    await collect(guardStream(byDefault.check, source(chunks, { everyMs: 1 }).iterable));
    expect(byDefault.calls.length).toBeLessThanOrEqual(sentenceCount + Math.ceil(text.length / 256) + 1);
    expect(byDefault.calls.length).toBeLessThan(chunks.length / 3);
    const everyChunk = fakeCheck(/BAD/);
    await collect(guardStream(everyChunk.check, source(chunks, { everyMs: 1 }).iterable, { checkChars: 0 }));
    expect(everyChunk.calls.length).toBeGreaterThan(chunks.length / 2);
  });

  it("stops a sentence that never ends at a flag within checkChars, having released nothing of it", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const { iterable, returned } = source(["It goes on ", "and BAD ", "and on "], {
      forever: true,
      everyMs: 1,
    });
    const error = await blocked(guardStream(check, iterable));
    expect(error.released).toBe("");
    expect(returned).toHaveBeenCalledOnce();
    expect(calls.reduce((n, c) => n + c.message.length, 0)).toBeLessThan(256 + 16);
  });

  it("sends as context the sentence the chunk continues, from before the last 256 characters", async () => {
    const { check, calls } = fakeCheck(/BAD/);
    const chunks = sentences(30);
    await collect(guardStream(check, source(chunks, { everyMs: 1 }).iterable, { checkChars: 0 }));
    let start = 0;
    let later = 0;
    for (const call of calls.slice(0, -1)) {
      if (start > 300) {
        later++;
        expect(call.context).toMatch(/^Sentence \d+ has/);
        expect(call.context?.length).toBeGreaterThanOrEqual(256);
        expect(call.context?.length).toBeLessThan(256 + 44);
      }
      start += call.message.length;
    }
    expect(later).toBeGreaterThan(100);
  });

  it("fails closed when a check fails: the error propagates and the source is cancelled", async () => {
    const check: OutputCheckFn = async () => {
      throw new Error("server unreachable");
    };
    const { iterable, returned } = source(words(3), { forever: true, everyMs: 1 });
    await expect(collect(guardStream(check, iterable))).rejects.toThrow("server unreachable");
    expect(returned).toHaveBeenCalledOnce();
  });
});
