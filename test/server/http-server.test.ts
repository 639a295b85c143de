import { describe, expect, it } from "vitest";
import { DEFAULT_CONNECTION_LIMITS } from "../../src/server/http-server.js";
import { documentedFetch } from "../helpers/openapi/conformance.js";
import {
  nextResponse,
  open,
  parseResponse,
  rawPost,
  received,
  sleep,
  startTestServer,
  stopServersAfterEach,
} from "./sockets.js";

stopServersAfterEach();

// Short deadlines, checked often; the bounds below are generous because the machine is shared.
const quick = { headersMs: 600, requestMs: 1_200, checkEveryMs: 100 };
const TIMEOUT = { error: "Request timeout" };

describe("deadlines fire on time, not at Node's 30 s check", () => {
  it("a slowloris client trickling headers gets a JSON 408 within the header deadline", async () => {
    const { server } = await startTestServer({ connections: quick });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    const trickle = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 100);
    const { text, ms } = await result;
    clearInterval(trickle);
    const response = parseResponse(text);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(TIMEOUT);
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(4_000);
  });

  it("a connection that never sends a byte is closed by the same deadline", async () => {
    const { server } = await startTestServer({ connections: quick });
    const { ms, text } = await received(await open(server.port));
    expect(parseResponse(text).status).toBe(408);
    expect(ms).toBeLessThan(4_000);
  });

  it("a stalled body gets a 408 by the request deadline; its request is logged 499, not 500", async () => {
    const { server, fixture, logs } = await startTestServer({ connections: quick });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write(rawPost(fixture.keys.current, '{"message":', { "Content-Length": "100" }));
    const { text, ms } = await result;
    expect(parseResponse(text).status).toBe(408);
    expect(ms).toBeGreaterThan(1_000);
    expect(ms).toBeLessThan(5_000);
    await expect.poll(() => logs.find((r) => r.msg === "request")).toMatchObject({ status: 499 });
    expect(logs.filter((r) => r.level === "error")).toEqual([]);
  });

  it("an idle keep-alive connection is closed after keepAliveMs", async () => {
    const { server } = await startTestServer({ connections: { keepAliveMs: 300 } });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const { text, ms } = await result;
    expect(parseResponse(text).headers.connection).toBe("keep-alive");
    expect(ms).toBeGreaterThan(200);
    expect(ms).toBeLessThan(3_000);
  });

  it("defaults to the figures docs/operations.md gives, checked every second", () => {
    expect(DEFAULT_CONNECTION_LIMITS).toMatchObject({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      checkEveryMs: 1_000,
    });
  });
});

describe("the connection cap", () => {
  it("refuses connections past maxConnections, logs it, and takes new ones once some close", async () => {
    const { server, logs } = await startTestServer({ connections: { maxConnections: 3 } });
    const held = await Promise.all([1, 2, 3].map(() => open(server.port)));
    // Each one answered proves the server has accepted it.
    for (const socket of held) {
      const answer = nextResponse(socket);
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      expect((await answer).status).toBe(200);
    }
    const refused = await open(server.port);
    const outcome = received(refused);
    refused.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect((await outcome).text).toBe("");
    expect(logs.find((r) => r.msg.startsWith("connection limit reached"))).toMatchObject({
      level: "warn",
      max_connections: 3,
    });

    held[0]?.destroy();
    await sleep(100);
    const res = await documentedFetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    for (const socket of held) socket.destroy();
  });
});
