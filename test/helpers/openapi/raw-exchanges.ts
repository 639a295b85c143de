// Raw-socket tests write bytes and read bytes; to check their responses against the document,
// each response has to be paired with the request it answers. HTTP/1.1 answers in order, so the
// requests written on a socket, in order, are enough.
import type { Socket } from "node:net";
import { expectDocumented } from "./conformance.js";

interface Sent {
  readonly requests: { method: string; path: string }[];
  /** Responses already checked on this socket. */
  answered: number;
}

const sent = new WeakMap<Socket, Sent>();
const REQUEST_LINE = /^(\S+) (\S+) HTTP\/1\.[01]\r\n/;

/** Notes the request line of every write that starts a request (a trickled header does not). */
export function recordRequests(socket: Socket): void {
  const record: Sent = { requests: [], answered: 0 };
  sent.set(socket, record);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const head =
      typeof chunk === "string" ? chunk.slice(0, 2048) : Buffer.from(chunk).toString("latin1", 0, 2048);
    const line = REQUEST_LINE.exec(head);
    if (line) record.requests.push({ method: line[1] ?? "", path: line[2] ?? "" });
    return write(chunk, ...rest);
  }) as Socket["write"];
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** As received, one character per byte. */
  readonly body: string;
}

/**
 * Checks the next responses on `socket` against the document, each against the request it
 * answers. A response with no request line before it (a connection that sent nothing, or
 * garbage) is checked as a request that matches no path.
 */
export async function expectDocumentedAnswers(socket: Socket, answers: readonly RawAnswer[]): Promise<void> {
  const record = sent.get(socket);
  if (!record && answers.length > 0) throw new Error("open the socket with open() so its requests are known");
  for (const { status, headers, body } of answers) {
    const request = record?.requests[record.answered++] ?? { method: "", path: "" };
    await expectDocumented({
      ...request,
      status,
      headers,
      body: Buffer.from(body, "latin1").toString("utf8"),
    });
  }
}
