import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Graceful shutdown for a Node HTTP server; wrap the server before adding the app's request
 * listener, so responses can be marked before they start. `drain` stops accepting and resolves
 * once every connection has closed, or after `limitMs` when whatever is left is cut. Every
 * request that reached the server before `drain` is answered, with `Connection: close`.
 */
export function drainable(server: Server) {
  const open = new Set<ServerResponse>();
  const latest = new WeakMap<Socket, ServerResponse>();
  let draining = false;
  let accepted = 0;
  server.on("connection", () => accepted++);

  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.shouldKeepAlive = false;
    open.add(response);
    latest.set(request.socket, response);
    response.once("close", () => open.delete(response));
  });

  async function drain(limitMs: number): Promise<void> {
    draining = true;
    const force = setTimeout(() => server.closeAllConnections(), limitMs);
    for (const response of open) if (!response.headersSent) response.shouldKeepAlive = false;
    // Node takes one connection from the accept queue per turn of the event loop, and close()
    // resets those still queued: keep taking them while they come (for half the limit at most).
    // A turn that takes none has also read what waits on idle keep-alive connections, which
    // close() would otherwise cut as idle.
    const until = performance.now() + limitMs / 2;
    let seen: number;
    do {
      seen = accepted;
      await nextTurn();
      await nextTurn();
    } while (seen !== accepted && performance.now() < until);
    // close() also stops Node's header and request deadlines: from here the drain limit bounds all.
    await new Promise<void>((resolve, reject) => {
      // Keep-alive responses that began before the drain leave idle connections behind.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.close((error) => {
        clearInterval(sweep);
        clearTimeout(force);
        if (error) reject(error);
        else resolve();
      });
    });
  }

  return {
    drain,
    /** The response a socket's latest request is getting, if any. */
    inFlight: (socket: Socket) => {
      const response = latest.get(socket);
      return response && open.has(response) ? response : undefined;
    },
  };
}
