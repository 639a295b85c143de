import { MessageChannel, type Worker } from "node:worker_threads";
import type { Profile } from "../config/profile.js";
import type { CompiledProfile } from "../engine/compile.js";
import type { ChatMessage } from "../engine/conversation/messages.js";
import { allText, messageTexts } from "../engine/conversation/texts.js";
import type {
  CheckOptions,
  CheckOutcome,
  CheckResponse,
  ConversationOutcome,
  ConversationResponse,
  Engine,
  GuardrailFailure,
} from "../engine/engine.js";
import type { CheckMode, GuardrailId } from "../guardrails/types.js";
import type { Encoder } from "../models/encoder.js";
import { serveEncoder } from "../models/remote-encoder.js";
import { siblingScript, spawnWorker } from "../spawn-worker.js";

/**
 * The text lane: a worker thread that checks long texts, so that no request's text work holds the
 * event loop that answers every other client (and /healthz). A 100,000-character check costs
 * 50–300 ms of windowing, n-grams and PII scanning; on the main thread four of them at once kept
 * every other request waiting that long. Short texts stay on the main thread: their work is a few
 * milliseconds, and a round trip to the lane would cost more than it saves.
 *
 * Protocol (structured clone): `{ reload: n, profiles }` → `{ reloaded: n, error? }`;
 * `{ check: id, mode, profile, message, prompt?, context? }` or `{ check: id, profile, messages }`
 * → `{ checked: id, body, flaggedBy, failures, timings }`
 * or `{ checked: id, error }`; `{ abort: id }` stops a check whose client has gone.
 */
export type LaneRequest =
  | { readonly reload: number; readonly profiles: ReadonlyMap<string, Profile> }
  | {
      readonly check: number;
      readonly mode: CheckMode;
      readonly profile: string;
      readonly message: string;
      readonly prompt?: string;
      readonly context?: string;
      readonly systemPrompt?: string;
    }
  | { readonly check: number; readonly profile: string; readonly messages: readonly ChatMessage[] }
  | { readonly abort: number };

interface SentFailure {
  readonly guardrail: GuardrailId;
  readonly name: string;
  readonly message: string;
}

export type LaneReply =
  | { readonly reloaded: number; readonly error?: string }
  | {
      readonly checked: number;
      readonly body: CheckResponse | ConversationResponse;
      readonly flaggedBy: readonly GuardrailId[];
      readonly failures: readonly SentFailure[];
      readonly timings: CheckOutcome["timings"];
    }
  | { readonly checked: number; readonly error: string };

/** Texts at least this long (message, prompt and context together, in UTF-16 units) go to the lane. */
export const LANE_MIN_CHARS = 2_000;

export interface TextLane {
  check(
    mode: CheckMode,
    profile: string,
    message: string,
    prompt: string | undefined,
    options?: CheckOptions,
  ): Promise<CheckOutcome>;
  checkMessages(
    profile: string,
    messages: readonly ChatMessage[],
    options?: CheckOptions,
  ): Promise<ConversationOutcome>;
  /** Checks sent to the lane and not answered yet. */
  inFlight(): number;
  /** Compiles these profiles in the lane; checks sent after it use them. Rejects if they fail to compile. */
  reload(profiles: ReadonlyMap<string, Profile>): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  readonly resolve: (reply: LaneReply) => void;
}

/**
 * Starts the lane's thread and sends it `profiles` (not awaited: a long check sent before they
 * are compiled waits for them). Embedding goes through `encoder` on this thread, so the lane's
 * windows share the encoder pool's fair queue with every other request. A lane thread that dies
 * fails the checks it held and is started again, with the last profiles, for the next one.
 * `onCompileError` hears of profiles a fresh thread failed to compile (reload() rejects instead).
 */
export function startTextLane(
  encoder: Encoder,
  profiles: ReadonlyMap<string, Profile>,
  onCompileError: (error: string) => void = () => {},
): TextLane {
  const script = siblingScript(import.meta.url, "text-lane-worker");
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let checks = 0;
  let latest = profiles;
  let lane: { worker: Worker; stopEncoder: () => void } | undefined;
  // A lane closed while it still compiles (SIGTERM right after start) did not fail to compile.
  let closing = false;

  const send = (request: (id: number) => LaneRequest): Promise<LaneReply> => {
    const current = lane ?? start();
    const id = nextId++;
    const reply = new Promise<LaneReply>((resolve) => pending.set(id, { resolve }));
    current.worker.postMessage(request(id));
    current.worker.ref();
    return reply;
  };

  function start() {
    const channel = new MessageChannel();
    const worker = spawnWorker(script, { encoderPort: channel.port2 }, [channel.port2]);
    const started = { worker, stopEncoder: serveEncoder(channel.port1, encoder) };
    channel.port1.unref(); // the lane's idle port must not keep the process alive
    lane = started;
    worker.on("message", (reply: LaneReply) => {
      const id = "checked" in reply ? reply.checked : reply.reloaded;
      pending.get(id)?.resolve(reply);
      pending.delete(id);
      if (pending.size === 0) worker.unref();
    });
    worker.on("error", () => {}); // reported through "exit"
    worker.on("exit", (code) => {
      started.stopEncoder();
      // The next check starts a new thread (with the latest profiles): no restart loop if it dies at once.
      if (lane === started) lane = undefined;
      const error = `the text lane exited (code ${code})`;
      for (const [id, call] of pending) call.resolve({ checked: id, error });
      pending.clear();
    });
    const id = nextId++;
    pending.set(id, {
      resolve: (reply) => "error" in reply && reply.error && !closing && onCompileError(reply.error),
    });
    worker.postMessage({ reload: id, profiles: latest } satisfies LaneRequest);
    return started;
  }

  /** Sends one check to the lane and waits for its outcome; `signal` aborts it there. */
  const ask = async (request: (id: number) => LaneRequest, signal: AbortSignal | undefined) => {
    if (signal?.aborted) throw signal.reason;
    let sent: number | undefined;
    const onAbort = () =>
      sent !== undefined && lane?.worker.postMessage({ abort: sent } satisfies LaneRequest);
    signal?.addEventListener("abort", onAbort, { once: true });
    checks++;
    try {
      const reply = await send((id) => {
        sent = id;
        return request(id);
      });
      if ("error" in reply) throw new Error(reply.error);
      if (!("body" in reply)) throw new Error("text lane: unexpected reply");
      return {
        body: reply.body,
        flaggedBy: reply.flaggedBy,
        timings: reply.timings,
        failures: reply.failures.map((f): GuardrailFailure => {
          const error = new Error(f.message);
          error.name = f.name;
          return { guardrail: f.guardrail, error };
        }),
      };
    } finally {
      checks--;
      signal?.removeEventListener("abort", onAbort);
    }
  };

  start();
  return {
    check: (mode, profile, message, prompt, { signal, context, systemPrompt } = {}) =>
      ask(
        (id) => ({
          check: id,
          mode,
          profile,
          message,
          ...(prompt === undefined ? {} : { prompt }),
          ...(context === undefined ? {} : { context }),
          ...(systemPrompt === undefined ? {} : { systemPrompt }),
        }),
        signal,
      ),
    // Its body is a conversation's: the lane checked `messages`.
    checkMessages: (profile, messages, { signal } = {}) =>
      ask((id) => ({ check: id, profile, messages }), signal) as Promise<ConversationOutcome>,
    inFlight: () => checks,
    async reload(next) {
      latest = next;
      const reply = await send((reload) => ({ reload, profiles: next }));
      if ("error" in reply && reply.error) throw new Error(reply.error);
    },
    async close() {
      closing = true;
      const current = lane;
      lane = undefined;
      if (current) {
        await current.worker.terminate();
        current.stopEncoder();
      }
    },
  };
}

/**
 * The server's engine: checks of long texts go to the lane, short ones run here. Both give the
 * same answer for the same text and profile; only the thread doing the work differs.
 */
export function laneEngine(local: Engine, lane: TextLane, minChars = LANE_MIN_CHARS): Engine {
  const check = (
    mode: CheckMode,
    message: string,
    profile: CompiledProfile,
    prompt?: string,
    options: CheckOptions = {},
  ): Promise<CheckOutcome> =>
    message.length +
      (prompt?.length ?? 0) +
      (options.context?.length ?? 0) +
      (options.systemPrompt?.length ?? 0) >=
    minChars
      ? lane.check(mode, profile.profile.name, message, prompt, options)
      : local.check(mode, message, profile, prompt, options);
  const checkMessages: Engine["checkMessages"] = (messages, profile, options = {}) =>
    allText(messages.map(messageTexts)).length >= minChars
      ? lane.checkMessages(profile.profile.name, messages, options)
      : local.checkMessages(messages, profile, options);
  return {
    check,
    checkMessages,
    inputCheck: async (message, profile) => (await check("input", message, profile)).body,
    outputCheck: async (message, prompt, profile) => (await check("output", message, profile, prompt)).body,
  };
}
