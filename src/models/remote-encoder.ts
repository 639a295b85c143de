import type { MessagePort } from "node:worker_threads";
import type { EmbedOptions, Encoder, EncoderInfo } from "./encoder.js";

/**
 * An encoder shared across threads: the thread that owns it (the server's main thread, with its
 * pool of encoder workers) answers `embed` calls that another thread makes through a MessagePort,
 * so every thread's requests meet in the one pool and its fair queue. Tokenising stays on the
 * calling thread (its own tokenizer), since windowing needs it synchronously.
 *
 * Messages: `{ embed: id, texts }` → `{ embedded: id, data }` (vectors in one transferred buffer)
 * or `{ embedded: id, error }`; `{ cancel: id }` aborts a call; `{ load: id }` → `{ loaded: id,
 * info }` or `{ loaded: id, error }`.
 */
type Request =
  | { readonly embed: number; readonly texts: readonly string[] }
  | { readonly cancel: number }
  | { readonly load: number };
type Reply =
  | { readonly embedded: number; readonly data: Float32Array }
  | { readonly embedded: number; readonly error: string }
  | { readonly loaded: number; readonly info: EncoderInfo }
  | { readonly loaded: number; readonly error: string };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The owning side: answers the port's calls with `encoder`. Returns a function that stops it. */
export function serveEncoder(port: MessagePort, encoder: Encoder): () => void {
  const calls = new Map<number, AbortController>();
  const post = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  port.on("message", (request: Request) => {
    if ("cancel" in request) return calls.get(request.cancel)?.abort(new Error("embedding cancelled"));
    if ("load" in request) {
      encoder.load().then(
        (info) => post({ loaded: request.load, info: { ...info } }),
        (error: unknown) => post({ loaded: request.load, error: message(error) }),
      );
      return;
    }
    const controller = new AbortController();
    calls.set(request.embed, controller);
    encoder
      .embed(request.texts, { signal: controller.signal })
      .then(
        (vectors) => {
          const data = new Float32Array(vectors.length * encoder.dim);
          for (const [i, vector] of vectors.entries()) data.set(vector, i * encoder.dim);
          post({ embedded: request.embed, data }, [data.buffer]);
        },
        (error: unknown) => post({ embedded: request.embed, error: message(error) }),
      )
      .finally(() => calls.delete(request.embed));
  });
  return () => {
    for (const controller of calls.values()) controller.abort(new Error("encoder closed"));
    port.close();
  };
}

/** The calling side: an Encoder whose vectors come from the thread behind `port`. */
export function remoteEncoder(
  port: MessagePort,
  local: Pick<Encoder, "dim" | "maxTokens" | "countTokens" | "tokenEnds">,
): Encoder {
  let nextId = 0;
  const pending = new Map<number, { resolve: (reply: Reply) => void }>();
  port.on("message", (reply: Reply) => {
    const id = "embedded" in reply ? reply.embedded : reply.loaded;
    pending.get(id)?.resolve(reply);
    pending.delete(id);
  });
  // An idle port must not keep the thread alive: only calls in flight hold it.
  port.unref();
  const call = (request: (id: number) => Request): { id: number; reply: Promise<Reply> } => {
    const id = nextId++;
    const reply = new Promise<Reply>((resolve) => pending.set(id, { resolve }));
    if (pending.size === 1) port.ref();
    port.postMessage(request(id));
    void reply.finally(() => pending.size === 0 && port.unref());
    return { id, reply };
  };

  const embed = async (texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> => {
    const { signal } = options;
    if (texts.length === 0) return [];
    if (signal?.aborted)
      throw signal.reason instanceof Error ? signal.reason : new Error("embedding aborted");
    const { id, reply } = call((embed) => ({ embed, texts }));
    // On abort the call rejects at once with the signal's reason; the owner drops its queued batches.
    let onAbort = () => {};
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => {
        port.postMessage({ cancel: id } satisfies Request);
        reject(signal?.reason instanceof Error ? signal.reason : new Error("embedding aborted"));
      };
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    const answer = await Promise.race([reply, aborted]).finally(() =>
      signal?.removeEventListener("abort", onAbort),
    );
    if ("error" in answer) throw new Error(answer.error);
    if (!("data" in answer)) throw new Error("remote encoder: unexpected reply");
    return texts.map((_, i) => answer.data.subarray(i * local.dim, (i + 1) * local.dim));
  };

  return {
    dim: local.dim,
    maxTokens: local.maxTokens,
    countTokens: local.countTokens,
    ...(local.tokenEnds ? { tokenEnds: local.tokenEnds } : {}),
    load: async () => {
      const answer = await call((load) => ({ load })).reply;
      if ("error" in answer) throw new Error(answer.error);
      if (!("info" in answer)) throw new Error("remote encoder: unexpected reply");
      return answer.info;
    },
    embed,
    close: async () => {
      port.close();
    },
  };
}
