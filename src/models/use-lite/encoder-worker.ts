import { parentPort, workerData } from "node:worker_threads";
import { createUseLiteEncoder, USE_LITE_DIM, type UseLiteOptions } from "./encoder.js";

/**
 * The thread side of encoder-pool.ts: one in-thread USE-lite encoder (its own onnxruntime session),
 * loaded at start. Posts `{ ready: info }` or `{ fatal }` once, then answers each `{ id, texts }`
 * with `{ id, data }` (every vector in one buffer, transferred, not copied) or `{ id, error }`;
 * `{ close }` releases the session and ends the thread. A text may come as its token ids, already
 * tokenised on the sending thread: the same vector, without tokenising it again here.
 */
export type WorkerRequest =
  | { readonly id: number; readonly texts: readonly (string | Int32Array)[] }
  | { readonly close: true };
export type WorkerReply =
  | { readonly ready: { id: string; modelPath: string; loadMs: number } }
  | { readonly fatal: string }
  | { readonly id: number; readonly data: Float32Array }
  | { readonly id: number; readonly error: string };

const port = parentPort;
if (!port) throw new Error("encoder-worker runs only inside a worker thread");
const encoder = createUseLiteEncoder(workerData as UseLiteOptions);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

port.on("message", (request: WorkerRequest) => {
  // Released here, then the thread ends by itself: terminate() with a live onnxruntime session can
  // abort the whole process ("terminate called after throwing an instance of 'Napi::Error'").
  if ("close" in request) return void encoder.close().finally(() => port.close());
  const { id, texts } = request;
  const tokenized = () => texts.map((t) => (typeof t === "string" ? encoder.tokenize(t) : t));
  // A tokenizer that throws (its vocabulary unreadable) rejects this batch, as embed would.
  new Promise<Float32Array[]>((resolve) => resolve(encoder.embedTokens(tokenized()))).then(
    (vectors) => {
      const data = new Float32Array(vectors.length * USE_LITE_DIM);
      for (const [i, vector] of vectors.entries()) data.set(vector, i * USE_LITE_DIM);
      post({ id, data }, [data.buffer]);
    },
    (error: unknown) => post({ id, error: message(error) }),
  );
});
encoder.load().then(
  (info) => post({ ready: { ...info } }),
  (error: unknown) => post({ fatal: message(error) }),
);
