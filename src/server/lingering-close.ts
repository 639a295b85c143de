import { type IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long, and how many bytes of a body nobody will read, a closing connection keeps reading. */
export interface LingerBounds {
  readonly ms: number;
  readonly bytes: number;
}

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection whose client may still be sending, the way nginx's lingering close does.
 * Closing a socket while its receive buffer holds unread bytes makes the kernel send a reset,
 * and a client that writes its whole body before reading (Python's urllib) then loses the
 * answer already sent. So: half-close (our FIN follows the answer), read and discard what still
 * arrives, and close once the client is done or `bounds` runs out, whichever comes first.
 */
export function lingeringClose(socket: Socket, request: IncomingMessage | undefined, bounds: LingerBounds) {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const start = socket.bytesRead;
  const cut = () => socket.destroy();
  // The client sent everything (or gave up): close once our answer has left.
  const done = () => (socket.writableFinished ? cut() : socket.once("finish", cut));
  const timer = setTimeout(cut, bounds.ms);
  // The HTTP parser reads the socket itself (and drops a dumped body unseen): only the socket's
  // counter sees every byte, so it is polled; a fast client may overshoot by one interval's worth.
  const meter = setInterval(() => socket.bytesRead - start > bounds.bytes && cut(), 25);
  socket.once("close", () => {
    clearTimeout(timer);
    clearInterval(meter);
  });
  socket.once("end", done);
  // The whole body may have arrived while the answer was being written.
  if (request?.complete) done();
  else request?.once("end", done);
  // Nobody reads the rest of the body: it flows to nowhere, so the parser keeps the socket reading.
  request?.resume();
  socket.end();
}

/**
 * Node's responses, except that an answer given before the request body has fully arrived
 * (a 413, a 401 or a 415 sent without reading it) closes the connection: the rest of the body
 * would otherwise have to be read to find the next request. It says `Connection: close`, and
 * the close lingers instead of resetting the client.
 */
export function lingeringResponses(bounds: LingerBounds): typeof ServerResponse<IncomingMessage> {
  return class LingeringResponse extends ServerResponse<IncomingMessage> {
    override writeHead(statusCode: number, ...rest: unknown[]): this {
      const request = this.req;
      if (!request.complete && !request.destroyed) {
        this.shouldKeepAlive = false;
        // Node ends a `Connection: close` response with destroySoon(): the reset described above.
        const socket = request.socket;
        socket.destroySoon = () => lingeringClose(socket, request, bounds);
      }
      return super.writeHead(statusCode, ...(rest as [string]));
    }
  };
}
