import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  nextResponse,
  open,
  parseResponse,
  rawPost,
  received,
  startTestServer,
  stopServersAfterEach,
} from "./sockets.js";

stopServersAfterEach();

const N = 60;
const MESSAGE = JSON.stringify({ message: "hello world ".repeat(834) }); // 10,000 characters

/** Writes one request on every connection and calls close() in the same turn, before any is read. */
async function closeWithRequestsUnread(sockets: Socket[], key: string, close: () => Promise<void>) {
  const answers = sockets.map((socket) => received(socket));
  for (const socket of sockets) socket.write(rawPost(key, MESSAGE));
  const closed = close();
  const results = await Promise.all(answers);
  await closed;
  return results.map(({ text, error }) => (text ? parseResponse(text) : { status: error ?? "closed" }));
}

describe("close() answers every request that reached the server", () => {
  it(`${N} new connections, some still in the accept queue: all 200, Connection: close`, async () => {
    const { server, fixture, logs } = await startTestServer();
    const sockets = await Promise.all(Array.from({ length: N }, () => open(server.port)));
    const responses = await closeWithRequestsUnread(sockets, fixture.keys.current, server.close);
    expect(responses.map((r) => r.status)).toEqual(Array(N).fill(200));
    for (const response of responses) expect(response).toMatchObject({ headers: { connection: "close" } });
    expect(logs.filter((r) => r.msg === "request")).toHaveLength(N);
  });

  it(`${N} idle keep-alive connections that just sent their next request: all 200`, async () => {
    const { server, fixture } = await startTestServer();
    const sockets = await Promise.all(Array.from({ length: N }, () => open(server.port)));
    await Promise.all(
      sockets.map((socket) => {
        const answered = nextResponse(socket);
        socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        return answered;
      }),
    );
    const responses = await closeWithRequestsUnread(sockets, fixture.keys.current, server.close);
    expect(responses.map((r) => r.status)).toEqual(Array(N).fill(200));
  });
});

describe("close() still finishes", () => {
  it("closing idle keep-alive connections instead of waiting out their timeout", async () => {
    const { server } = await startTestServer({ connections: { keepAliveMs: 60_000 } });
    const socket = await open(server.port);
    const answered = nextResponse(socket);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect((await answered).headers.connection).toBe("keep-alive");
    const ended = received(socket);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect((await ended).text).toBe("");
  });

  it("cutting what is unfinished at the drain limit", async () => {
    const { server, fixture } = await startTestServer({ drainMs: 500 });
    const socket = await open(server.port);
    const ended = received(socket);
    socket.write(rawPost(fixture.keys.current, '{"message":', { "Content-Length": "100" }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await server.close();
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThan(400);
    expect(ms).toBeLessThan(5_000);
    await ended;
  });
});
