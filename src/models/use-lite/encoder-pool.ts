import type { Worker } from "node:worker_threads";
import { siblingScript, spawnWorker } from "../../spawn-worker.js";
import type { Encoder, EncoderInfo } from "../encoder.js";
import { createUseLiteEncoder, USE_LITE_DIM, USE_LITE_MAX_TOKENS, type UseLiteOptions } from "./encoder.js";
import type { WorkerReply, WorkerRequest } from "./encoder-worker.js";
import { ensureModel } from "./model-cache.js";
import { type Call, nextCall, toBatches } from "./pool-schedule.js";

/**
 * USE-lite on worker threads. onnxruntime-node runs a session on the calling thread, so an
 * in-thread encoder lets a server use one core; here each of `workers` threads has its own session.
 * Each call is cut into batches of at most `batchSize` texts, and an idle worker takes the next
 * batch of the call with the fewest batches left, less one for every AGE_STEP_MS it has waited
 * (pool-schedule.ts):
 * a one-window check waits behind at most one batch per worker, never behind the whole of a long
 * text's windows; long calls finish one after another instead of all together at the end (round
 * robin made 60 long checks in flight at a shutdown all miss its deadline); and a long call
 * waits at most about AGE_STEP_MS per batch it has left, however many short ones keep arriving
 * (without the ageing a saturating soak kept some 20,000-character checks waiting 10 s).
 * `countTokens` stays synchronous on this thread, and the ids it tokenised for the most recent
 * texts (RECENT_TOKENISED) go to the worker with those texts when they are embedded: windowing
 * counts the tokens of each window's text on this thread just before it is embedded, and the
 * worker tokenising it again was a second tokenisation of every request. A text counted again
 * (its sentences, when the pieces of a long text are cut) is counted from the ids it has.
 */
export interface PooledEncoderOptions extends UseLiteOptions {
  readonly workers: number;
  /** Texts per batch sent to a worker (default 2: under 10 ms of work even for full windows). */
  readonly batchSize?: number;
  /** The worker script (tests substitute one that crashes); default encoder-worker next to this file. */
  readonly workerScript?: URL;
}

/** What the pool is doing now, for the server's metrics. */
export interface PoolStats {
  readonly workers: number;
  /** Workers embedding a batch right now. */
  readonly busy: number;
  /** Batches waiting for a free worker, over every call. */
  readonly queued: number;
}

export interface PooledEncoder extends Encoder {
  stats(): PoolStats;
}

interface Batch {
  readonly id: number;
  readonly call: Call;
  readonly indices: readonly number[];
}

interface Slot {
  readonly worker: Worker;
  readonly ready: Promise<EncoderInfo>;
  busy: Batch | undefined;
}

/** Texts whose ids countTokens keeps: a few requests' windows and sentence pieces. */
const RECENT_TOKENISED = 256;

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("embedding aborted");
}

/** Asks the worker to release its session and end; terminates it only if it does not in time. */
function stop(worker: Worker, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    worker.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ close: true });
  });
}

export function createPooledEncoder(options: PooledEncoderOptions): PooledEncoder {
  const { workers, workerScript, batchSize = 2, ...useLite } = options;
  if (!(Number.isInteger(workers) && workers > 0))
    throw new RangeError(`workers must be ≥ 1, got ${workers}`);
  const script = workerScript ?? siblingScript(import.meta.url, "encoder-worker");
  // Tokenises for countTokens only: its session is never loaded.
  const local = createUseLiteEncoder(useLite);
  // Insertion order is age: the oldest entry goes first. Only texts the model reads whole are
  // kept (a window is at most 96 tokens), so the map stays under half a MiB.
  const tokenised = new Map<string, Int32Array>();
  // Also counts a text again from its ids: the pieces of a long text are cut from the same
  // sentences its windows were.
  const countTokens = (text: string): number => {
    let ids = tokenised.get(text);
    if (!ids) {
      const fresh = local.tokenize(text);
      if (fresh.length > USE_LITE_MAX_TOKENS) return fresh.length;
      ids = Int32Array.from(fresh);
    }
    tokenised.delete(text);
    tokenised.set(text, ids);
    if (tokenised.size > RECENT_TOKENISED) tokenised.delete(tokenised.keys().next().value as string);
    return ids.length;
  };
  // The ids if this thread tokenised the text lately, else the text for the worker to tokenise.
  const wire = (text: string): string | Int32Array => tokenised.get(text) ?? text;
  const slots: (Slot | undefined)[] = Array.from({ length: workers }, () => undefined);
  // Calls with batches still to send, in arrival order.
  const waiting: Call[] = [];
  let nextId = 0;
  let loading: Promise<EncoderInfo> | undefined;

  const fail = (call: Call, error: Error) => {
    if (call.settled) return;
    call.settled = true;
    const at = waiting.indexOf(call);
    if (at >= 0) waiting.splice(at, 1);
    call.reject(error);
  };
  const answered = (batch: Batch, data: Float32Array) => {
    const { call } = batch;
    call.inFlight--;
    if (call.settled) return;
    batch.indices.forEach((i, row) => {
      call.vectors[i] = data.subarray(row * USE_LITE_DIM, (row + 1) * USE_LITE_DIM);
    });
    if (call.inFlight === 0 && call.batches.length === 0) {
      call.settled = true;
      call.resolve(call.vectors);
    }
  };

  const start = (index: number): Slot => {
    // The model is built (if at all) on this thread before any worker starts: workers never convert.
    const worker = spawnWorker(script, { ...useLite, autoBuild: false });
    let lastError: Error | undefined;
    let wasReady = false;
    let settle: { resolve: (info: EncoderInfo) => void; reject: (error: Error) => void } | undefined;
    const ready = new Promise<EncoderInfo>((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => {}); // surfaced through load()
    const slot: Slot = { worker, ready, busy: undefined };
    worker.on("message", (reply: WorkerReply) => {
      if ("ready" in reply) {
        wasReady = true;
        return settle?.resolve(reply.ready);
      }
      if ("fatal" in reply) return settle?.reject(new Error(`USE-lite encoder worker: ${reply.fatal}`));
      const batch = slot.busy;
      if (batch?.id !== reply.id) return;
      slot.busy = undefined;
      if ("error" in reply) {
        batch.call.inFlight--;
        fail(batch.call, new Error(`USE-lite encoder worker: ${reply.error}`));
      } else answered(batch, reply.data);
      dispatch();
    });
    worker.on("error", (error: Error) => {
      lastError = error;
    });
    worker.on("exit", (code) => {
      if (slots[index] !== slot) return; // terminated by close()
      // A worker that had loaded is replaced at once, so the next call need not wait for a load; one
      // that died while loading is replaced only when a call needs it (no restart loop).
      slots[index] = wasReady ? start(index) : undefined;
      const why = `USE-lite encoder worker ${index} exited (code ${code}${lastError ? `: ${lastError.message}` : ""})`;
      settle?.reject(new Error(why));
      if (slot.busy) {
        slot.busy.call.inFlight--;
        fail(slot.busy.call, new Error(`${why} during this embed; it is restarted for later calls`));
      }
      slot.busy = undefined;
      dispatch();
    });
    return slot;
  };

  const dispatch = () => {
    for (let i = 0; i < slots.length && waiting.length > 0; i++) {
      slots[i] ??= start(i);
      const slot = slots[i] as Slot;
      if (slot.busy) continue;
      const at = nextCall(waiting, performance.now());
      const call = waiting[at] as Call;
      const indices = call.batches.shift() as number[];
      if (call.batches.length === 0) waiting.splice(at, 1);
      call.inFlight++;
      slot.busy = { id: nextId++, call, indices };
      const texts = indices.map((k) => wire(call.texts[k] as string));
      slot.worker.postMessage({ id: slot.busy.id, texts } satisfies WorkerRequest);
    }
    // An idle worker does not keep the process alive; a busy one does, until it answers.
    for (const slot of slots) {
      if (slot?.busy) slot.worker.ref();
      else slot?.worker.unref();
    }
  };

  const load = async (): Promise<EncoderInfo> => {
    const started = performance.now();
    const files = await ensureModel({
      ...(useLite.cacheDir ? { cacheDir: useLite.cacheDir } : {}),
      ...(useLite.precision ? { precision: useLite.precision } : {}),
      autoBuild: useLite.autoBuild ?? true,
    });
    const running = slots.map((slot, i) => (slots[i] = slot ?? start(i)));
    const infos = await Promise.all(running.map((slot) => slot.ready));
    const stale = infos.find((info) => info.id !== files.id);
    if (stale) throw new Error(`USE-lite encoder worker loaded ${stale.id}, expected ${files.id}`);
    dispatch(); // unrefs the idle workers
    return {
      id: files.id,
      ...(files.approximates ? { approximates: files.approximates } : {}),
      modelPath: files.modelPath,
      loadMs: performance.now() - started,
    };
  };

  const loaded = (): Promise<EncoderInfo> => {
    // A failed load is forgotten (and its workers stopped), so a later call can try again.
    loading ??= load().catch(async (error: unknown) => {
      loading = undefined;
      await stopAll();
      throw error;
    });
    return loading;
  };

  const stopAll = async () => {
    const running = slots.splice(0, slots.length, ...slots.map(() => undefined));
    const closed = new Error("USE-lite encoder closed");
    for (const slot of running) if (slot?.busy) fail(slot.busy.call, closed);
    for (const call of [...waiting]) fail(call, closed);
    await Promise.all(running.map((slot) => slot && stop(slot.worker)));
  };

  return {
    dim: USE_LITE_DIM,
    maxTokens: USE_LITE_MAX_TOKENS,
    load: loaded,
    embed: async (texts, options = {}) => {
      const { signal } = options;
      if (texts.length === 0) return [];
      if (signal?.aborted) throw abortError(signal);
      const current = loaded();
      await current;
      // close() while this call waited for the load: do not start the workers again for it.
      if (loading !== current) throw new Error("USE-lite encoder closed");
      if (signal?.aborted) throw abortError(signal);
      return new Promise((resolve, reject) => {
        // The abort listener goes with the call, however it ends.
        const onAbort = () => fail(call, abortError(signal as AbortSignal));
        const detach = () => signal?.removeEventListener("abort", onAbort);
        const call: Call = {
          texts,
          vectors: [],
          batches: toBatches(texts, batchSize),
          inFlight: 0,
          arrived: performance.now(),
          settled: false,
          resolve: (vectors) => {
            detach();
            resolve(vectors);
          },
          reject: (error) => {
            detach();
            reject(error);
          },
        };
        // Batches not yet sent are dropped at once; one already running finishes unread.
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.push(call);
        dispatch();
      });
    },
    countTokens,
    tokenEnds: (text) => local.tokenEnds?.(text),
    stats: () => ({
      workers,
      busy: slots.filter((slot) => slot?.busy).length,
      queued: waiting.reduce((sum, call) => sum + call.batches.length, 0),
    }),
    close: async () => {
      loading = undefined;
      await Promise.all([stopAll(), local.close()]);
    },
  };
}
