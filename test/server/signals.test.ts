import { describe, expect, it, vi } from "vitest";
import { handleSignals } from "../../src/server/signals.js";
import type { RunningServer } from "../../src/server/start.js";

function fakeServer() {
  return {
    port: 1,
    url: "http://127.0.0.1:1",
    reload: vi.fn(async () => true),
    close: vi.fn(async () => {}),
  } satisfies RunningServer;
}

const listeners = () => ["SIGHUP", "SIGTERM", "SIGINT"].map((s) => process.listenerCount(s));

describe("handleSignals", () => {
  it("reloads on SIGHUP, and on SIGTERM closes, resolves and lets go of the signals", async () => {
    const before = listeners();
    const server = fakeServer();
    const stopped = handleSignals(server);
    process.emit("SIGHUP", "SIGHUP");
    process.emit("SIGHUP", "SIGHUP");
    expect(server.reload).toHaveBeenCalledTimes(2);
    expect(server.close).not.toHaveBeenCalled();
    process.emit("SIGTERM", "SIGTERM");
    await expect(stopped).resolves.toBe("SIGTERM");
    expect(server.close).toHaveBeenCalledTimes(1);
    expect(listeners()).toEqual(before);
  });

  it("treats SIGINT like SIGTERM", async () => {
    const server = fakeServer();
    const stopped = handleSignals(server);
    process.emit("SIGINT", "SIGINT");
    await expect(stopped).resolves.toBe("SIGINT");
    expect(server.close).toHaveBeenCalledTimes(1);
  });
});
