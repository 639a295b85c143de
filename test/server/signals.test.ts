import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { handleSignals, npmParent } from "../../src/server/signals.js";
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

// `npx guardrail serve &` then `kill PID`: npm passes the signal to the shell it ran the command
// in, the shell dies without passing it on, and the server ran on with no parent.
describe("following the process that started the server", () => {
  it("stops as on SIGTERM once the parent is gone, and lets go of the signals", async () => {
    const before = listeners();
    const parent = spawn("sleep", ["30"], { stdio: "ignore" });
    await once(parent, "spawn");
    const server = fakeServer();
    const stopped = handleSignals(server, { parentPid: parent.pid as number, checkEveryMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.close).not.toHaveBeenCalled();
    parent.kill("SIGTERM");
    await expect(stopped).resolves.toBe("parent exited");
    expect(server.close).toHaveBeenCalledTimes(1);
    expect(listeners()).toEqual(before);
  });

  it("is asked for only under npm (npx, npm exec, npm run), not under nohup or a service manager", () => {
    expect(npmParent({ npm_lifecycle_event: "npx" }, 4242)).toEqual({ parentPid: 4242 });
    expect(npmParent({}, 4242)).toEqual({});
  });
});
