/**
 * Guards a streamed model response with output-check (docs/service-spec.md, output-check rule 3:
 * each chunk is forwarded as soon as it is received). Generic over the check, so the HTTP client
 * and the in-process library share it. Text reaches the caller only after a check has passed it.
 */
import { GuardrailBlockedError } from "../api/errors.js";
import type { OutputCheckOptions, OutputCheckResponse } from "../api/types.js";
import { STREAM_MODES, type StreamMode } from "./modes.js";
import { readText, type StreamSource } from "./source.js";
import { checkableEnd, releasableEnd, safeCut, tailStart } from "./text-bounds.js";

export { STREAM_MODES, type StreamMode } from "./modes.js";
export type { ChatCompletionChunkLike, StreamChunk, StreamSource } from "./source.js";

/** One output-check; `signal` aborts it when the stream stops first. */
export type OutputCheckFn = (
  message: string,
  options: OutputCheckOptions & { signal?: AbortSignal },
) => Promise<OutputCheckResponse>;

export interface CheckEvent {
  readonly message: string;
  readonly context?: string;
  readonly response: OutputCheckResponse;
  /** True for the check of the whole response at the end. */
  readonly final: boolean;
}

export interface GuardStreamOptions {
  /** See StreamMode (default `sentence`). */
  mode?: StreamMode;
  /** The prompt that produced the response, sent with every check. */
  prompt?: string;
  /**
   * The most of the response before a chunk sent as its `context` (default 2,000 characters). The
   * context starts at the sentence before the last 256 characters, so it is usually far shorter.
   */
  tailChars?: number;
  /** How much passed text is held back until later text passes (default 64 characters). */
  holdBackChars?: number;
  /**
   * Text is released a sentence at a time, once the sentence has ended and passed; a sentence
   * still unfinished after this many characters is released a word at a time (default 400, about
   * one window of the sentence encoder; 0 releases word by word).
   */
  sentenceHoldChars?: number;
  /**
   * A check is sent when passing the text read so far would release some of it, and otherwise
   * once this many characters have arrived unchecked (default 256), so a flag mid-sentence still
   * stops the source early. 0 sends a check for every chunk (one in flight, the rest coalesced).
   */
  checkChars?: number;
  /**
   * The least time between two checks' starts (default 0; `chunk` mode ignores it). A check that
   * would release text waits for it; one that 256 characters unchecked call for does not.
   */
  checkIntervalMs?: number;
  /** The longest `message` one check sends (default 100,000, the server's limit). */
  maxCheckChars?: number;
  /** Stops the stream: the source is cancelled and the iteration throws the signal's reason. */
  signal?: AbortSignal;
  /** Called with every check's verdict, the final one included (for logs, `--json`). */
  onCheck?: (event: CheckEvent) => void;
}

export const GUARD_STREAM_DEFAULTS = {
  tailChars: 2_000,
  holdBackChars: 64,
  sentenceHoldChars: 400,
  checkChars: 256,
  checkIntervalMs: 0,
  maxCheckChars: 100_000,
} as const;

type Event =
  | { kind: "read"; text: string | undefined }
  | { kind: "checked"; end: number; response: OutputCheckResponse }
  | { kind: "failed"; error: unknown }
  | { kind: "due" };

const settle = <T>(promise: Promise<T>, done: (value: T) => Event): Promise<Event> =>
  promise.then(done, (error): Event => ({ kind: "failed", error }));

/**
 * Yields the text of `source` as output-check passes it. At most one check is in flight: chunks
 * that arrive meanwhile are sent together in the next one, so a slow network costs fewer, larger
 * checks, never a queue. At the end the whole response is checked once more, alone, so the
 * stream's verdict is the one-shot verdict. A flag throws GuardrailBlockedError; a flag, an error
 * or the caller leaving the loop cancels the source. That is the `sentence` and `chunk` modes; in
 * `final` mode text is yielded as it arrives and only the check at the end is sent.
 */
export async function* guardStream(
  check: OutputCheckFn,
  source: StreamSource,
  options: GuardStreamOptions = {},
): AsyncGenerator<string, void, undefined> {
  const { prompt, signal, onCheck } = options;
  const tailChars = options.tailChars ?? GUARD_STREAM_DEFAULTS.tailChars;
  const holdBack = options.holdBackChars ?? GUARD_STREAM_DEFAULTS.holdBackChars;
  const sentenceHold = options.sentenceHoldChars ?? GUARD_STREAM_DEFAULTS.sentenceHoldChars;
  const mode = options.mode ?? "sentence";
  if (!STREAM_MODES.includes(mode))
    throw new RangeError(
      `unknown stream mode "${mode}": ${STREAM_MODES.join(", ").replace(/, (?=\w+$)/, " or ")}`,
    );
  const checkChars = options.checkChars ?? (mode === "chunk" ? 0 : GUARD_STREAM_DEFAULTS.checkChars);
  const releasable = (passed: number) => releasableEnd(text, released, passed, holdBack, sentenceHold);
  const intervalMs =
    mode === "chunk" ? 0 : (options.checkIntervalMs ?? GUARD_STREAM_DEFAULTS.checkIntervalMs);
  let lastCheckAt = Number.NEGATIVE_INFINITY;
  let due: Promise<Event> | undefined; // a timer for a check that waits for checkIntervalMs
  let dueTimer: ReturnType<typeof setTimeout> | undefined;
  // Worth a check now: enough has arrived unchecked, or it could release text and checkIntervalMs
  // has passed since the last one (else a timer wakes the loop when it has).
  const worthChecking = (ready: number) => {
    if (ready - checked >= checkChars) return true;
    if (releasable(ready) <= releasable(checked)) return false;
    const wait = lastCheckAt + intervalMs - performance.now();
    if (wait <= 0) return true;
    due ??= new Promise((resolve) => {
      dueTimer = setTimeout(() => resolve({ kind: "due" }), wait);
    });
    return false;
  };
  const maxCheckChars = options.maxCheckChars ?? GUARD_STREAM_DEFAULTS.maxCheckChars;
  // A chunk's check carries its context too: together they stay within the server's limit.
  const pieceChars = Math.max(2, maxCheckChars - tailChars);
  const reader = readText(source);
  const inFlight = new AbortController();
  const stop = abortEvent(signal);
  let text = "";
  let readDone = false;
  let checked = 0; // text before this index was sent to a check,
  let released = 0; // and before this one passed and was yielded
  let reading: Promise<Event> | undefined;
  let checking: Promise<Event> | undefined;

  const run = async (start: number, end: number, final: boolean): Promise<OutputCheckResponse> => {
    const message = text.slice(start, end);
    const from = tailStart(text, start, tailChars);
    const context = from < start ? text.slice(from, start) : undefined;
    const response = await check(message, {
      ...(prompt !== undefined ? { prompt } : {}),
      ...(context !== undefined ? { context } : {}),
      signal: inFlight.signal,
    });
    onCheck?.({ message, ...(context !== undefined ? { context } : {}), response, final });
    return response;
  };
  const next = async (): Promise<Event> => {
    const event = await Promise.race([reading, checking, due, stop.event].filter((p) => p !== undefined));
    if (event.kind === "due") due = undefined;
    if (event.kind === "failed") throw event.error;
    return event;
  };

  try {
    while (!readDone || checking) {
      reading ??= readDone ? undefined : settle(reader.next(), (piece) => ({ kind: "read", text: piece }));
      const ready = checkableEnd(text, readDone);
      if (mode !== "final" && !readDone && !checking && checked < ready && worthChecking(ready)) {
        const start = checked;
        checked = ready - start > pieceChars ? safeCut(text, start + pieceChars) : ready;
        const end = checked;
        lastCheckAt = performance.now();
        checking = settle(run(start, end, false), (response) => ({ kind: "checked", end, response }));
      }
      const event = await next();
      if (event.kind === "read") {
        reading = undefined;
        if (event.text === undefined) readDone = true;
        else text += event.text;
        // An audit: the text goes out unchecked, and only the final check below judges it.
        if (mode === "final" && event.text) {
          released = text.length;
          yield event.text;
        }
        continue;
      }
      if (event.kind !== "checked") continue;
      checking = undefined;
      if (event.response.injection_detected)
        throw new GuardrailBlockedError(event.response, text.slice(0, released), false);
      const end = releasable(event.end);
      if (end > released) {
        const out = text.slice(released, end);
        released = end;
        yield out;
      }
    }
    clearTimeout(dueTimer);
    due = undefined;
    // The whole response, as a one-shot output-check sees it. Past the server's limit no one-shot
    // check exists: then it is checked in consecutive pieces, each with its context.
    for (let start = 0; ; ) {
      const end =
        text.length <= maxCheckChars ? text.length : safeCut(text, Math.min(text.length, start + pieceChars));
      checking = settle(run(start, end, true), (response) => ({ kind: "checked", end, response }));
      const event = await next();
      if (event.kind === "checked" && event.response.injection_detected)
        throw new GuardrailBlockedError(event.response, text.slice(0, released), true);
      if (end >= text.length) break;
      start = end;
    }
    if (released < text.length) yield text.slice(released);
  } finally {
    clearTimeout(dueTimer);
    inFlight.abort();
    stop.dispose();
    if (!readDone) reader.cancel().catch(() => {});
  }
}

/** The caller's signal as an event the loop races; `dispose` drops the listener. */
function abortEvent(signal: AbortSignal | undefined): { event?: Promise<Event>; dispose(): void } {
  if (!signal) return { dispose() {} };
  let fire = () => {};
  const event = new Promise<Event>((resolve) => {
    fire = () => resolve({ kind: "failed", error: signal.reason });
  });
  if (signal.aborted) fire();
  else signal.addEventListener("abort", fire, { once: true });
  return { event, dispose: () => signal.removeEventListener("abort", fire) };
}
