import { describe, expect, it } from "vitest";
import { isClientAbort } from "../../src/server/client-abort.js";
import { open, rawPost, startTestServer, stopServersAfterEach } from "./sockets.js";

stopServersAfterEach();

describe("a client that goes away mid-request", () => {
  it("is logged at info with status 499, never as a server error", async () => {
    const { server, fixture, logs } = await startTestServer();
    const socket = await open(server.port);
    const half = `{"message":"${"a".repeat(500)}`;
    socket.write(rawPost(fixture.keys.current, half, { "Content-Length": "1000" }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect
      .poll(() => logs.find((r) => r.msg === "request"))
      .toMatchObject({
        level: "info",
        status: 499,
      });
    expect(logs.filter((r) => r.level === "error")).toEqual([]);
  });
});

describe("isClientAbort", () => {
  it("knows Node's errors for a request cut short, and nothing else", () => {
    const coded = (code: string) => Object.assign(new Error("aborted"), { code });
    expect(isClientAbort(coded("ECONNRESET"))).toBe(true);
    expect(isClientAbort(coded("ERR_STREAM_PREMATURE_CLOSE"))).toBe(true);
    expect(isClientAbort(coded("ENOENT"))).toBe(false);
    expect(isClientAbort(new TypeError("aborted"))).toBe(false);
    expect(isClientAbort("ECONNRESET")).toBe(false);
  });
});
