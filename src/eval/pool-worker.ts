import { parentPort, workerData } from "node:worker_threads";

/**
 * The worker side of pool.ts: builds its state from `workerData` once (reporting a failure as
 * `fatal`), then answers each task in turn. Messages stay structured-clone friendly.
 */
export function serveWorker<S, Req, Res>(
  init: (data: unknown) => Promise<S>,
  handle: (state: S, task: Req) => Promise<Res>,
): void {
  const port = parentPort;
  if (!port) throw new Error("serveWorker runs only inside a worker thread");
  init(workerData).then(
    (state) => {
      port.on("message", ({ id, task }: { id: number; task: Req }) => {
        handle(state, task).then(
          (result) => port.postMessage({ id, result }),
          (error: unknown) =>
            port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
        );
      });
      port.postMessage({ ready: true });
    },
    (error: unknown) => port.postMessage({ fatal: error instanceof Error ? error.message : String(error) }),
  );
}
