// The shapes a fuzz of malformed requests found answered without a JSON body, or not at all.
// Each is sent on a raw socket to a real server on loopback.
import { describe, expect, it } from "vitest";
import {
  open,
  parseResponse,
  parseResponses,
  rawPost,
  received,
  sendAllThenRead,
  startTestServer,
  stopServersAfterEach,
} from "./sockets.js";

stopServersAfterEach();

const CANARY = "canary-7f3a";
const MALFORMED = { error: "Malformed HTTP request" };

describe("requests Node parses but no URL can be built from get a JSON 400, not a bare one", () => {
  it.each([
    ["an asterisk-form target", `POST * HTTP/1.1\r\nHost: x\r\nX-Canary: ${CANARY}\r\n\r\n`],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["an authority-form target on GET", "GET example.com:80 HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a Host header that is no host", `GET /healthz HTTP/1.1\r\nHost: ${CANARY} x@y\r\n\r\n`],
    ["no Host header on HTTP/1.1", "GET /healthz HTTP/1.1\r\n\r\n"],
  ])("%s", async (_name, request) => {
    const { server, logs } = await startTestServer();
    const response = parseResponse((await sendAllThenRead(server.port, request)).text);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual(MALFORMED);
    expect(logs.find((r) => r.msg === "client error")).toMatchObject({
      status: 400,
      request_id: response.headers["x-request-id"],
    });
    expect(JSON.stringify(logs)).not.toContain(CANARY);
  });

  it("HTTP/1.0 may still leave Host out", async () => {
    const { server } = await startTestServer();
    const response = parseResponse(
      (await sendAllThenRead(server.port, "GET /healthz HTTP/1.0\r\n\r\n")).text,
    );
    expect(response.status).toBe(200);
  });
});

describe("an expectation Node cannot meet gets a JSON 417, not a bare one", () => {
  it.each([
    ["GET /healthz", "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n"],
    [
      "POST to a path that is not there",
      "POST /nowhere HTTP/1.1\r\nHost: x\r\nExpect: x\r\nContent-Length: 2\r\n\r\nhi",
    ],
  ])("%s", async (_name, request) => {
    const { server, logs } = await startTestServer();
    const response = parseResponse((await sendAllThenRead(server.port, request)).text);
    expect(response.status).toBe(417);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ error: "Expectation not supported" });
    expect(logs.find((r) => r.msg === "client error")).toMatchObject({
      status: 417,
      code: "unsupported_expectation",
    });
  });
});

describe("CONNECT is refused in JSON, not dropped", () => {
  it.each([
    ["an authority target", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"],
    [
      "bytes for the tunnel already sent",
      "CONNECT 10.0.0.1:22 HTTP/1.1\r\nHost: 10.0.0.1:22\r\n\r\nSSH-2.0-x\r\n",
    ],
  ])("%s → 405 with Allow, connection closed", async (_name, request) => {
    const { server, logs } = await startTestServer();
    const { text } = await sendAllThenRead(server.port, request);
    const response = parseResponse(text);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD, POST");
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ error: "Method not allowed" });
    expect(logs.find((r) => r.msg === "client error")).toMatchObject({ status: 405, code: "connect_method" });
  });
});

describe("a chunked body announcing more than the body limit is a 413 at once", () => {
  const chunkedHead = (key: string) =>
    rawPost(key, "", { "Transfer-Encoding": "chunked" }).replace(/Content-Length: 0\r\n/, "");
  const TOO_LARGE = { error: "Request body exceeds 1024 bytes" };

  it.each([
    ["a chunk of 2^64-1 bytes", "ffffffffffffffff\r\nabc"],
    ["one byte over the limit", "401\r\n"],
    ["a size past the limit, extension and all", "1000;name=value\r\nab"],
    ["chunks that together pass the limit", `200\r\n${"a".repeat(0x200)}\r\n201\r\n`],
  ])("%s", async (_name, body) => {
    const { server, fixture } = await startTestServer({ limits: { bodyBytes: 1024 } });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write(chunkedHead(fixture.keys.current) + body);
    // The client sends nothing more and waits: the answer must not wait for the request deadline.
    const { text, ms } = await result;
    const response = parseResponse(text);
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual(TOO_LARGE);
    expect(ms).toBeLessThan(5_000);
  });

  it("the size line may arrive in pieces", async () => {
    const { server, fixture } = await startTestServer({ limits: { bodyBytes: 1024 } });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write(chunkedHead(fixture.keys.current));
    for (const piece of ["ff", "ffff", "ff\r\n"]) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.write(piece);
    }
    expect(parseResponse((await result).text).status).toBe(413);
  });

  it("chunked bodies within the limit are read on one connection, request after request", async () => {
    const { server, fixture } = await startTestServer({ limits: { bodyBytes: 1024 } });
    const body = JSON.stringify({ message: "hello" });
    const chunked = `${chunkedHead(fixture.keys.current)}${body.length.toString(16)}\r\n${body}\r\n0\r\nX-Trailer: 1\r\n\r\n`;
    const plain = rawPost(fixture.keys.current, body);
    const socket = await open(server.port);
    const result = received(socket);
    // Pipelined (one write each, so the conformance hook pairs answers with requests), and the
    // third announces too much: only it is refused.
    for (const request of [chunked, plain, `${chunkedHead(fixture.keys.current)}fffff\r\n`])
      socket.write(request);
    const { text } = await result;
    expect(parseResponses(text).map((r) => r.status)).toEqual([200, 200, 413]);
  });

  it("a body merely incomplete still waits for the request deadline (408)", async () => {
    const { server, fixture } = await startTestServer({
      limits: { bodyBytes: 1024 },
      connections: { headersMs: 600, requestMs: 1_200, checkEveryMs: 100 },
    });
    const socket = await open(server.port);
    const result = received(socket);
    socket.write(`${chunkedHead(fixture.keys.current)}10\r\n{"message":`);
    const { text, ms } = await result;
    expect(parseResponse(text).status).toBe(408);
    expect(ms).toBeGreaterThan(1_000);
  });
});
