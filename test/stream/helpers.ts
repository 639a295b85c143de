// What the stream guard's tests share: a fake output-check, a paced source, collecting a stream.
import { expect, vi } from "vitest";
import { GuardrailBlockedError } from "../../src/api/errors.js";
import type { OutputCheckOptions, OutputCheckResponse } from "../../src/api/types.js";
import type { OutputCheckFn } from "../../src/stream/guard-stream.js";
import type { StreamChunk } from "../../src/stream/source.js";

export function body(flagged: boolean, matched: string[] = []): OutputCheckResponse {
  return {
    injection_detected: flagged,
    execution_time: 0.001,
    checks: {
      content_moderation: { enabled: false, result: null, unsafe: false, category: null, signals: null },
      keyword: { enabled: true, detected: flagged, matched },
      regex: { enabled: false, detected: false, matched: [] },
      pii: { enabled: false, detected: false, entities: [] },
      system_prompt_protection: { enabled: false, detected: false, score: null, threshold: null },
    },
  };
}

export type Call = { message: string } & OutputCheckOptions;

/** A check that flags `pattern` when the chunk completes it (a match ending past the context). */
export function fakeCheck(pattern: RegExp, delayMs = 0) {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const check: OutputCheckFn = async (message, { prompt, context, signal }) => {
    calls.push({
      message,
      ...(prompt !== undefined ? { prompt } : {}),
      ...(context !== undefined ? { context } : {}),
    });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    inFlight--;
    signal?.throwIfAborted();
    const whole = (context ?? "") + message;
    const found = [...whole.matchAll(new RegExp(pattern, "g"))].filter(
      (m) => m.index + m[0].length > (context ?? "").length,
    );
    return body(
      found.length > 0,
      found.map((m) => m[0]),
    );
  };
  return { check, calls, maxInFlight: () => maxInFlight };
}

/** An async iterable over `chunks` (one every `everyMs`), recording `return()`; endless with `forever`. */
export function source<T extends StreamChunk>(chunks: T[], { everyMs = 0, forever = false } = {}) {
  const returned = vi.fn();
  let i = 0;
  const iterable: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        if (everyMs > 0) await new Promise((r) => setTimeout(r, everyMs));
        if (i < chunks.length || forever) return { done: false, value: chunks[i++ % chunks.length] as T };
        return { done: true, value: undefined };
      },
      async return() {
        returned();
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, returned };
}

export async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of stream) out.push(piece);
  return out;
}

export async function blocked(stream: AsyncIterable<string>): Promise<GuardrailBlockedError> {
  const error = await collect(stream).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardrailBlockedError);
  return error as GuardrailBlockedError;
}
