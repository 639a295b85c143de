import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { answerClientErrors } from "../../src/server/client-error.js";
import type { LogRecord } from "../../src/server/types.js";
import { parseResponse, sendAllThenRead, startTestServer, stopServersAfterEach } from "./sockets.js";

stopServersAfterEach();

const CANARY = "canary-4d1e";

describe("what Node's parser refuses is answered in JSON, Connection: close, and logged", () => {
  it.each([
    ["a malformed request line", 400, "Malformed HTTP request", `G@T /${CANARY} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ["a bad header", 400, "Malformed HTTP request", `GET / HTTP/1.1\r\nHost: x\r\n${CANARY} here\r\n\r\n`],
    [
      "headers over 16 KiB",
      431,
      "Request headers too large",
      `GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ${CANARY}${"a".repeat(20_000)}\r\n\r\n`,
    ],
  ])("%s → %i", async (_name, status, error, request) => {
    const { server, logs } = await startTestServer();
    const { text } = await sendAllThenRead(server.port, request);
    const response = parseResponse(text);
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ error });
    const line = logs.find((r) => r.msg === "client error");
    expect(line).toMatchObject({ level: "info", status, request_id: response.headers["x-request-id"] });
    expect(JSON.stringify(logs)).not.toContain(CANARY);
  });
});

describe("answerClientErrors", () => {
  const fakeSocket = (writable = true) =>
    ({ writable, destroyed: false, write: vi.fn(), destroy: vi.fn() }) as unknown as Socket & {
      write: ReturnType<typeof vi.fn>;
      destroy: ReturnType<typeof vi.fn>;
    };
  const answerer = (logs: LogRecord[], inFlight?: ServerResponse) =>
    answerClientErrors(
      (r) => logs.push(r),
      { ms: 1000, bytes: 1000 },
      () => inFlight,
    );

  it("only cuts a connection whose answer has already begun", () => {
    const socket = fakeSocket();
    const parseError = Object.assign(new Error("Parse Error"), { code: "HPE_INVALID_METHOD" });
    answerer([], { headersSent: true } as ServerResponse)(parseError, socket);
    expect(socket.write).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalledOnce();
  });

  it("only cuts a connection the client already reset, and says nothing of it", () => {
    const logs: LogRecord[] = [];
    const socket = fakeSocket(false);
    answerer(logs)(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), socket);
    expect(socket.write).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalledOnce();
    expect(logs).toEqual([]);
  });
});
