import type { IncomingMessage } from "node:http";

/**
 * Bodies refused by a check below the app that sees raw bytes (chunk-size-watch.ts). Kept per
 * request because the refusal may come before the handler starts reading.
 */
const refused = new WeakMap<IncomingMessage, Error>();
const REFUSED = "guardrail:body-refused";

/** Makes the body reader of `request` throw `error` at once, however much it is still waiting for. */
export function refuseBody(request: IncomingMessage, error: Error): void {
  if (refused.has(request)) return;
  refused.set(request, error);
  request.emit(REFUSED, error);
}

/**
 * A Node request's body as chunks, ended by a refusal as soon as one comes. Reading stops without
 * destroying the request: the answer to it still has to reach the client on the same socket.
 */
export async function* refusableChunks(request: IncomingMessage): AsyncGenerator<Uint8Array> {
  const iterator = request.iterator({ destroyOnReturn: false });
  let onRefused = (_error: Error) => {};
  const refusal = new Promise<never>((_resolve, reject) => {
    onRefused = reject;
    const early = refused.get(request);
    if (early) reject(early);
  });
  request.once(REFUSED, onRefused);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), refusal]);
      if (next.done) return;
      yield next.value as Uint8Array;
    }
  } finally {
    request.off(REFUSED, onRefused);
    // Queued behind a read still pending on a refused body: it settles when the connection closes.
    iterator.return?.().catch(() => {});
  }
}
