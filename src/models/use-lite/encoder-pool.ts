import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Encoder, EncoderInfo } from "../encoder.js";
import { createUseLiteEncoder, USE_LITE_DIM, USE_LITE_MAX_TOKENS, type UseLiteOptions } from "./encoder.js";
import type { WorkerReply } from "./encoder-worker.js";
import { ensureModel } from "./model-cache.js";

/**
 * USE-lite on worker threads. onnxruntime-node runs a session on the calling thread, so an
 * in-thread encoder lets a server use one core; here each of `workers` threads has its own session
 * and an idle one takes the oldest waiting call. `countTokens` stays synchronous on this thread.
 */
export interface PooledEncoderOptions extends UseLiteOptions {
  readonly workers: number;
  /** The worker script (tests substitute one that crashes); default encoder-worker next to this file. */
  readonly workerScript?: URL;
}

interface Call {
  readonly texts: readonly string[];
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  readonly ready: Promise<EncoderInfo>;
  busy: (Call & { id: number }) | undefined;
}

/** From src/ (vitest, tsx) a worker needs tsx's loader; the built dist/ runs plain JS. */
function spawn(script: URL, workerData: UseLiteOptions): Worker {
  if (!script.pathname.endsWith(".ts")) return new Worker(script, { workerData });
  const api = createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs");
  const boot = `import(${JSON.stringify(pathToFileURL(api).href)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
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

export function createPooledEncoder(options: PooledEncoderOptions): Encoder {
  const { workers, workerScript, ...useLite } = options;
  if (!(Number.isInteger(workers) && workers > 0))
    throw new RangeError(`workers must be ≥ 1, got ${workers}`);
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const script = workerScript ?? new URL(`./encoder-worker${ext}`, import.meta.url);
  // Tokenises for countTokens only: its session is never loaded.
  const local = createUseLiteEncoder(useLite);
  const slots: (Slot | undefined)[] = Array.from({ length: workers }, () => undefined);
  const waiting: Call[] = [];
  let nextId = 0;
  let loading: Promise<EncoderInfo> | undefined;

  const start = (index: number): Slot => {
    // The model is built (if at all) on this thread before any worker starts: workers never convert.
    const worker = spawn(script, { ...useLite, autoBuild: false });
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
      const call = slot.busy;
      if (call?.id !== reply.id) return;
      slot.busy = undefined;
      if ("error" in reply) call.reject(new Error(`USE-lite encoder worker: ${reply.error}`));
      else
        call.resolve(call.texts.map((_, i) => reply.data.subarray(i * USE_LITE_DIM, (i + 1) * USE_LITE_DIM)));
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
      slot.busy?.reject(new Error(`${why} during this embed; it is restarted for later calls`));
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
      const call = waiting.shift() as Call;
      slot.busy = { ...call, id: nextId++ };
      slot.worker.postMessage({ id: slot.busy.id, texts: call.texts });
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
      autoBuild: useLite.autoBuild ?? true,
    });
    const running = slots.map((slot, i) => (slots[i] = slot ?? start(i)));
    const infos = await Promise.all(running.map((slot) => slot.ready));
    const stale = infos.find((info) => info.id !== files.id);
    if (stale) throw new Error(`USE-lite encoder worker loaded ${stale.id}, expected ${files.id}`);
    dispatch(); // unrefs the idle workers
    return { id: files.id, modelPath: files.modelPath, loadMs: performance.now() - started };
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
    for (const slot of running) slot?.busy?.reject(closed);
    for (const call of waiting.splice(0)) call.reject(closed);
    await Promise.all(running.map((slot) => slot && stop(slot.worker)));
  };

  return {
    dim: USE_LITE_DIM,
    maxTokens: USE_LITE_MAX_TOKENS,
    load: loaded,
    embed: async (texts) => {
      if (texts.length === 0) return [];
      const current = loaded();
      await current;
      // close() while this call waited for the load: do not start the workers again for it.
      if (loading !== current) throw new Error("USE-lite encoder closed");
      return new Promise((resolve, reject) => {
        waiting.push({ texts, resolve, reject });
        dispatch();
      });
    },
    countTokens: local.countTokens,
    close: async () => {
      loading = undefined;
      await Promise.all([stopAll(), local.close()]);
    },
  };
}
