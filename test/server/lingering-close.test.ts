import { execFile } from "node:child_process";
import type { IncomingMessage } from "node:http";
import { createServer, type Socket } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { lingeringClose } from "../../src/server/lingering-close.js";
import { INPUT } from "./fixtures.js";
import {
  open,
  parseResponse,
  type Received,
  rawPost,
  received,
  sendAllThenRead,
  startTestServer,
  stopServersAfterEach,
} from "./sockets.js";

stopServersAfterEach();

const SIX_MIB = 6 * 1024 * 1024;
const TOO_LARGE = { error: "Request body exceeds 1048576 bytes" };
const bigMessage = (bytes: number) => `{"message":"${"a".repeat(bytes)}"}`;

function expect413(result: Received) {
  expect(result.text, `connection ended with ${result.error ?? "a close"}`).not.toBe("");
  const response = parseResponse(result.text);
  expect(response.status).toBe(413);
  expect(response.headers.connection).toBe("close");
  expect(JSON.parse(response.body)).toEqual(TOO_LARGE);
}

describe("an answer sent before the body arrived reaches a client that reads only after sending", () => {
  it("413 for 6 MiB announced by Content-Length, with Connection: close", async () => {
    const { server, fixture } = await startTestServer();
    for (let i = 0; i < 3; i++) {
      const request = rawPost(fixture.keys.current, bigMessage(SIX_MIB), { Connection: "close" });
      expect413(await sendAllThenRead(server.port, request));
    }
  });

  it("413 for 6 MiB sent chunked, found too large while reading", async () => {
    const { server, fixture } = await startTestServer();
    const chunk = "a".repeat(64 * 1024);
    const chunks = [`{"message":"`, ...Array.from({ length: SIX_MIB / chunk.length }, () => chunk), `"}`];
    const body = `${chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join("")}0\r\n\r\n`;
    const head = rawPost(fixture.keys.current, "", { "Transfer-Encoding": "chunked" }).replace(
      "Content-Length: 0\r\n",
      "",
    );
    expect413(await sendAllThenRead(server.port, head + body));
  });

  it("keeps a connection that answered a complete request open for the next one", async () => {
    const { server, fixture } = await startTestServer();
    const socket = await open(server.port);
    const result = received(socket);
    socket.write(rawPost(fixture.keys.current, '{"message":"hi"}'));
    socket.write(rawPost(fixture.keys.current, '{"message":"hi"}', { Connection: "close" }));
    const { text } = await result;
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(parseResponse(text).headers.connection).toBe("keep-alive");
  });
});

describe("lingering is bounded", () => {
  it("in time: a client that never finishes its body is cut after lingerMs, the 413 read", async () => {
    const { server, fixture } = await startTestServer({ connections: { lingerMs: 1_500 } });
    const socket = await open(server.port, true);
    const result = received(socket);
    socket.write(rawPost(fixture.keys.current, "", { "Content-Length": String(SIX_MIB) }));
    const drip = setInterval(() => socket.writable && socket.write("a".repeat(100)), 50);
    const { text, ms } = await result;
    clearInterval(drip);
    expect(parseResponse(text).status).toBe(413);
    // Not cut at once, nor after the 500 ms of @hono/node-server's own drain, and not left open.
    expect(ms).toBeGreaterThan(1_200);
    expect(ms).toBeLessThan(8_000);
  });

  it("in size: a client sending more than lingerBytes is cut long before lingerMs", async () => {
    const { server, fixture } = await startTestServer({
      connections: { lingerMs: 60_000, lingerBytes: 256 * 1024 },
    });
    const socket = await open(server.port, true);
    const result = received(socket);
    socket.write(rawPost(fixture.keys.current, "", { "Content-Length": String(1024 ** 3) }));
    const chunk = "a".repeat(64 * 1024);
    const pour = setInterval(() => socket.writable && socket.write(chunk), 5);
    const { ms } = await result;
    clearInterval(pour);
    expect(ms).toBeLessThan(10_000);
  });
});

describe("lingeringClose", () => {
  it("closes at once when the request body is already complete, without waiting for the client", async () => {
    let client: Socket | undefined;
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer({ allowHalfOpen: true }, (socket) => {
        server.close();
        resolve(socket);
      }).listen(0, "127.0.0.1", async () => {
        const { port } = server.address() as { port: number };
        // A client that keeps its side open: only the server can end this connection.
        client = await open(port, true);
      });
    });
    const socket = await accepted;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    const started = performance.now();
    const complete = { complete: true, resume: () => {}, once: () => {} } as unknown as IncomingMessage;
    lingeringClose(socket, complete, { ms: 10_000, bytes: 1024 });
    await closed;
    client?.destroy();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

const URLLIB = `
import json, sys, urllib.request, urllib.error
port, key = sys.argv[1], sys.argv[2]
body = b'{"message":"' + b"a" * (6 * 1024 * 1024) + b'"}'
request = urllib.request.Request(f"http://127.0.0.1:{port}${INPUT}", data=body, method="POST",
    headers={"Content-Type": "application/json", "X-API-Key": key})
try:
    urllib.request.urlopen(request, timeout=30)
    print(json.dumps({"status": 200}))
except urllib.error.HTTPError as e:
    print(json.dumps({"status": e.code, "body": json.loads(e.read()), "connection": e.headers["Connection"]}))
except OSError as e:
    print(json.dumps({"error": str(e)}))
`;

const hasPython = await promisify(execFile)("python3", ["--version"]).then(
  () => true,
  () => false,
);

describe("Python's urllib", () => {
  // The client the probe saw fail 10 times out of 10; skipped only where python3 is missing.
  it.skipIf(!hasPython)("sees the 413 JSON for a 6 MiB body, three times out of three", async () => {
    const { server, fixture } = await startTestServer();
    for (let i = 0; i < 3; i++) {
      const { stdout } = await promisify(execFile)("python3", [
        "-c",
        URLLIB,
        String(server.port),
        fixture.keys.current,
      ]);
      expect(JSON.parse(stdout)).toEqual({ status: 413, body: TOO_LARGE, connection: "close" });
    }
  });
});
