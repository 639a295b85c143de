import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";

/** Longer than Node's 16 KiB header limit: a head it accepts always fits. */
const MAX_HEAD = 64 * 1024;
const CR = 13;
const LF = 10;

export type Framing = "ok" | "refuse" | "stop";

function hexDigit(byte: number): number {
  if (byte >= 48 && byte <= 57) return byte - 48;
  const lower = byte | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** How a request's body is framed, read from its head; undefined when the watch should not guess. */
function bodyFraming(head: string): { chunked: boolean; length: number } | undefined {
  const [requestLine = "", ...fields] = head.split("\r\n");
  // Node hands a CONNECT's socket over (client-error.ts answers it): no body follows as HTTP.
  if (requestLine.startsWith("CONNECT ")) return undefined;
  let codings: string | undefined;
  let length = 0;
  for (const field of fields) {
    const colon = field.indexOf(":");
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    if (name === "transfer-encoding") codings = value;
    else if (name === "content-length") {
      if (!/^\d+$/.test(value)) return undefined;
      length = Number(value);
    }
  }
  if (codings === undefined) return { chunked: false, length };
  // RFC 9112 §6.3: a request is chunked only if chunked is its final coding; Node refuses the rest.
  return /(^|,)[\t ]*chunked$/i.test(codings) ? { chunked: true, length: 0 } : undefined;
}

/**
 * Follows RFC 9112's message framing over one connection's raw bytes, only as far as needed to read
 * every chunk-size line (§7.1) of a chunked request body. Node's parser reports no chunk sizes and
 * waits for every byte a chunk announces, so a client announcing 2^64-1 bytes held the request
 * until its deadline. Returns "refuse" once a body announces more than `maxBytes` in all, and
 * "stop" on anything it does not follow, so it never refuses what it misread: Node's parser stays
 * the judge of the syntax.
 */
export function chunkFraming(maxBytes: number) {
  let state: "head" | "size" | "extension" | "data" | "trailer" = "head";
  let head = "";
  /** Bytes still to pass over: a Content-Length body, or chunk data and its CRLF. */
  let skip = 0;
  let afterSkip: "head" | "size" = "head";
  let size = 0;
  let digits = 0;
  let announced = 0;
  let trailerLine = 0;

  return (bytes: Buffer): Framing => {
    let i = 0;
    while (i < bytes.length) {
      switch (state) {
        case "head": {
          // Empty lines before a request line are ignored (RFC 9112 §2.2).
          while (head === "" && i < bytes.length && (bytes[i] === CR || bytes[i] === LF)) i++;
          if (i === bytes.length) return "ok";
          const known = head.length;
          head += bytes.toString("latin1", i, Math.min(bytes.length, i + MAX_HEAD));
          const end = head.indexOf("\r\n\r\n", Math.max(0, known - 3));
          if (end < 0) {
            if (head.length >= MAX_HEAD) return "stop";
            i = bytes.length;
            break;
          }
          i += end + 4 - known;
          const framing = bodyFraming(head.slice(0, end));
          head = "";
          if (!framing) return "stop";
          if (framing.chunked) [state, size, digits, announced] = ["size", 0, 0, 0];
          else if (framing.length > 0) [state, skip, afterSkip] = ["data", framing.length, "head"];
          break;
        }
        case "size": {
          const digit = hexDigit(bytes[i] ?? -1);
          if (digit < 0) {
            if (digits === 0) return "stop";
            state = "extension";
            break;
          }
          size = size * 16 + digit;
          digits++;
          if (announced + size > maxBytes) return "refuse";
          i++;
          break;
        }
        case "extension": {
          // Chunk extensions run to the end of the line; Node bounds their length itself.
          const lf = bytes.indexOf(LF, i);
          if (lf < 0) return "ok";
          i = lf + 1;
          if (size === 0) [state, trailerLine] = ["trailer", 0];
          else [state, skip, afterSkip, announced] = ["data", size + 2, "size", announced + size];
          [size, digits] = [0, 0];
          break;
        }
        case "data": {
          const passed = Math.min(skip, bytes.length - i);
          skip -= passed;
          i += passed;
          if (skip === 0) state = afterSkip;
          break;
        }
        case "trailer": {
          // Trailer fields end at an empty line, as a head does.
          const byte = bytes[i++];
          if (byte !== LF) trailerLine += byte === CR ? 0 : 1;
          else if (trailerLine === 0) state = "head";
          else trailerLine = 0;
          break;
        }
      }
    }
    return "ok";
  };
}

/**
 * Refuses, through `refuse`, the request whose chunked body announces more than `maxBytes`, as soon
 * as the announcing bytes arrive. `requestOn` names the request a connection is reading now.
 */
export function watchChunkSizes(
  server: Server,
  maxBytes: number,
  requestOn: (socket: Socket) => IncomingMessage | undefined,
  refuse: (request: IncomingMessage) => void,
) {
  server.on("connection", (socket: Socket) => {
    const follow = chunkFraming(maxBytes);
    // Registered after Node's own listener, so the parser has seen these bytes (and emitted
    // their request) by the time the watch reads them.
    const onData = (bytes: Buffer) => {
      const framing = follow(bytes);
      if (framing === "ok") return;
      socket.off("data", onData);
      const request = requestOn(socket);
      if (framing === "refuse" && request) refuse(request);
    };
    socket.on("data", onData);
  });
}
