import { GuardrailBlockedError } from "../../api/errors.js";
import { createRestorer, type Originals, type Restorer } from "../../engine/redact/placeholders.js";
import type { GuardrailId } from "../../guardrails/types.js";
import { guardStream } from "../../stream/guard-stream.js";
import type { AnswerCheck } from "./answer-check.js";
import { answerJoiner, answerText, type Json, restoreDelta } from "./answer-text.js";
import { ProxyError } from "./errors.js";
import { type SseEvent, sseEvents } from "./sse.js";
import type { Deadline } from "./upstream.js";

/** How a guarded stream ended, for metrics and the log. */
export type StreamEnd =
  | { readonly kind: "done" }
  | { readonly kind: "blocked"; readonly guardrails: readonly GuardrailId[] }
  | { readonly kind: "failed"; readonly code: string };

export interface GuardedStreamOptions {
  readonly body: ReadableStream<Uint8Array>;
  readonly verdicts: AnswerCheck;
  readonly originals: Originals;
  /** Restarted by every byte the upstream sends; when it runs out the stream ends with an error event. */
  readonly timer: Deadline;
  /** Closes the upstream connection. */
  readonly stopUpstream: () => void;
  /** The request's `model`, for a final chunk sent before the upstream sent any. */
  readonly model: unknown;
  readonly onEnd: (end: StreamEnd) => void;
}

/** An upstream event, where its text lies in the answer, and the chunk it carries. */
interface Pending {
  readonly event: SseEvent;
  readonly chunk?: Json;
  readonly start: number;
  readonly end: number;
}

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const DONE = "data: [DONE]\n\n";

function parseChunk(data: string | undefined): Json | undefined {
  if (data === undefined || data === "[DONE]") return undefined;
  try {
    const value = JSON.parse(data);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The first choice's delta: the stream guard reads one choice (docs/proxy.md: `n` > 1 is refused). */
const firstDelta = (chunk: Json | undefined) => {
  const choices = chunk?.choices;
  const first = Array.isArray(choices) ? (choices as Json[]).find((c) => (c.index ?? 0) === 0) : undefined;
  return first?.delta as Json | undefined;
};

/** Text in a choice other than the first, which no check reads: never passed on. */
const otherChoiceText = (chunk: Json | undefined) => {
  const choices = chunk?.choices;
  return (
    Array.isArray(choices) &&
    (choices as Json[]).some((c) => (c.index ?? 0) !== 0 && answerText(c.delta as Json | undefined) !== "")
  );
};

/**
 * The upstream's event stream as the client gets it: each event passed on unchanged (or with its
 * placeholders restored) once output-check has passed all its text, through the stream guard
 * (src/stream/guard-stream.ts). A flag ends it with a `content_filter` chunk and `[DONE]`, and
 * closes the upstream connection; events with no text (the role, the finish reason, usage) wait
 * for the text before them, so `finish_reason: stop` never precedes the final verdict.
 */
export function guardedStream(options: GuardedStreamOptions): ReadableStream<Uint8Array> {
  const { verdicts, originals, timer } = options;
  const pending: Pending[] = [];
  const restorers = new Map<string, Restorer>();
  const restorer = (key: string): Restorer => {
    const found = restorers.get(key) ?? createRestorer(originals);
    restorers.set(key, found);
    return found;
  };
  let envelope: Json | undefined;
  let total = 0;

  async function* source() {
    const join = answerJoiner();
    let finished = false;
    try {
      for await (const event of sseEvents(options.body, timer)) {
        const chunk = parseChunk(event.data);
        if (otherChoiceText(chunk))
          throw new ProxyError(502, "the upstream streamed a second choice", "upstream_invalid_answer");
        if (chunk && envelope === undefined && typeof chunk.id === "string") envelope = chunk;
        const text = answerText(firstDelta(chunk), join);
        pending.push({ event, ...(chunk ? { chunk } : {}), start: total, end: total + text.length });
        total += text.length;
        if (text !== "") yield text;
      }
      finished = true;
    } finally {
      if (!finished) options.stopUpstream();
    }
  }

  /** A chunk like the upstream's, with `choices` of our own. */
  const chunkWith = (choice: Json) => ({
    id: envelope?.id ?? "chatcmpl-guardrail",
    object: "chat.completion.chunk",
    created: envelope?.created ?? Math.floor(Date.now() / 1000),
    model: envelope?.model ?? options.model ?? null,
    choices: [{ index: 0, ...choice }],
  });

  /** Text a restorer still holds (a placeholder's start no later text completed), as chunks of their own. */
  function* residue(): Generator<string> {
    for (const [key, r] of restorers) {
      const rest = r.flush();
      if (rest === "") continue;
      const delta = key === "content" ? { content: rest } : toolDelta(key, rest);
      yield sse(chunkWith({ delta, finish_reason: null }));
    }
  }

  function* emit({ event, chunk, start, end }: Pending): Generator<string> {
    if (originals.size === 0) {
      yield event.raw;
      return;
    }
    if (start === end) yield* residue();
    const delta = firstDelta(chunk);
    if (!chunk || !delta || start === end) {
      yield event.raw;
      return;
    }
    const choices = (chunk.choices as Json[]).map((c) =>
      (c.index ?? 0) === 0 ? { ...c, delta: restoreDelta(delta, restorer) } : c,
    );
    yield sse({ ...chunk, choices });
  }

  /** Every event whose text has all been released (`all`: every event left). */
  function* flush(released: number, all: boolean): Generator<string> {
    for (let next = pending[0]; next; next = pending[0]) {
      const ready = all || (next.end > next.start ? next.end <= released : next.start < released);
      if (!ready) return;
      pending.shift();
      yield* emit(next);
    }
  }

  async function* run(): AsyncGenerator<string> {
    let released = 0;
    try {
      for await (const piece of guardStream(verdicts.check, source(), verdicts.streamOptions)) {
        released += piece.length;
        yield* flush(released, false);
      }
      yield* flush(total, true);
      options.onEnd({ kind: "done" });
    } catch (error) {
      options.stopUpstream();
      if (error instanceof GuardrailBlockedError) {
        yield* residue();
        yield sse(chunkWith({ delta: {}, logprobs: null, finish_reason: "content_filter" }));
        yield DONE;
        options.onEnd({ kind: "blocked", guardrails: verdicts.flaggedBy() });
        return;
      }
      const failure =
        error instanceof ProxyError
          ? error
          : new ProxyError(502, "the upstream's stream broke off", "upstream_stream_error");
      // The OpenAI SDKs raise an APIError for an event carrying `error`.
      yield sse({
        error: { message: failure.message, type: "server_error", code: failure.code, param: null },
      });
      options.onEnd({ kind: "failed", code: failure.code });
    }
  }

  const encoder = new TextEncoder();
  const lines = run();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await lines.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      options.stopUpstream();
      await lines.return(undefined);
    },
  });
}

function toolDelta(key: string, args: string): Json {
  return { tool_calls: [{ index: Number(key.slice("tool:".length)), function: { arguments: args } }] };
}
