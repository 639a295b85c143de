import type { Worker } from "node:worker_threads";
import { spawnWorker } from "../spawn-worker.js";

/**
 * A fixed set of worker threads running one script. Each worker initialises itself from
 * `workerData` (loading config and models on its own thread) and then answers tasks one at a time.
 * `run` resolves with each task's own answer; callers keep order by awaiting tasks in the order they
 * sent them (see `orderedMap`). Protocol: the worker posts `{ ready: true }` or `{ fatal }` once,
 * then `{ id, result }` or `{ id, error }` per task (see pool-worker.ts).
 */
export interface Pool<Req, Res> {
  readonly size: number;
  run(task: Req): Promise<Res>;
  close(): Promise<void>;
}

type Reply =
  | { ready: true }
  | { fatal: string }
  | { id: number; result: unknown }
  | { id: number; error: string };

interface Slot {
  readonly worker: Worker;
  busy: { id: number; resolve: (v: unknown) => void; reject: (e: Error) => void } | undefined;
}

export async function startPool<Req, Res>(
  script: URL,
  size: number,
  workerData: unknown,
): Promise<Pool<Req, Res>> {
  const slots: Slot[] = [];
  const waiting: { task: Req; resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  let nextId = 0;
  let broken: Error | undefined;

  const dispatch = () => {
    for (const slot of slots) {
      const next = slot.busy === undefined ? waiting.shift() : undefined;
      if (!next) continue;
      const id = nextId++;
      slot.busy = { id, resolve: next.resolve, reject: next.reject };
      slot.worker.postMessage({ id, task: next.task });
    }
  };
  const fail = (error: Error) => {
    broken ??= error;
    for (const slot of slots) {
      slot.busy?.reject(error);
      slot.busy = undefined;
    }
    for (const w of waiting.splice(0)) w.reject(error);
  };

  const ready = Array.from({ length: size }, () => {
    const slot: Slot = { worker: spawnWorker(script, workerData), busy: undefined };
    slots.push(slot);
    return new Promise<void>((resolve, reject) => {
      slot.worker.on("message", (reply: Reply) => {
        if ("ready" in reply) return resolve();
        if ("fatal" in reply) return reject(new Error(reply.fatal));
        const busy = slot.busy;
        slot.busy = undefined;
        if ("error" in reply) busy?.reject(new Error(reply.error));
        else busy?.resolve(reply.result);
        dispatch();
      });
      slot.worker.on("error", (error: Error) => {
        reject(error);
        fail(error);
      });
      slot.worker.on("exit", (code) => {
        const error = new Error(`a batch worker exited (code ${code})`);
        reject(error);
        if (!closing) fail(error);
      });
    });
  });
  let closing = false;
  const close = async () => {
    closing = true;
    await Promise.all(slots.map((s) => s.worker.terminate()));
  };
  try {
    await Promise.all(ready);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    size,
    run: (task) =>
      new Promise<Res>((resolve, reject) => {
        if (broken) return reject(broken);
        waiting.push({ task, resolve: resolve as (v: unknown) => void, reject });
        dispatch();
      }),
    close,
  };
}

/**
 * Maps an async stream through `fn` with up to `window` calls in flight, yielding results in input
 * order: a slow task holds back later results but not later work.
 */
export async function* orderedMap<T, R>(
  source: AsyncIterable<T>,
  window: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  for await (const item of source) {
    const p = fn(item);
    p.catch(() => {}); // surfaced when awaited in order below
    inFlight.push(p);
    if (inFlight.length >= window) yield await (inFlight.shift() as Promise<R>);
  }
  while (inFlight.length > 0) yield await (inFlight.shift() as Promise<R>);
}
