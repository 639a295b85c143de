import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bindApp, type CreatedKey, createKey, revokeKey } from "../../src/config/store.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { RunningServer } from "../../src/server/start.js";
import { startBuiltServer } from "../helpers/built-server.js";
import { type Probe, timeToFlip } from "../helpers/flip.js";
import { appUnflagged, inputCheck, keyRefused, keyWorks } from "../helpers/probes.js";
import { APP_STRICT, type ConfigFixture, makeConfigDir } from "./fixtures.js";

// Issue 13 §4: replicas share nothing but the config directory. Two servers read one directory
// while `guardrail keys` and `guardrail apps` (the store functions they call) change it, and a
// client keeps both busy the whole time with a key and an app that stay valid throughout.

const WINDOW_MS = 5000;
const store = { registry: builtinGuardrails };

/**
 * Requests to every server, one after another per server with a pause between (about 100 a second
 * each: steady traffic, not a saturation test; the servers and this client share one thread here),
 * until stopped: their statuses.
 */
function steadyLoad(urls: readonly string[], key: string) {
  const statuses: number[] = [];
  let running = true;
  const loops = urls.map(async (url) => {
    while (running) {
      statuses.push((await inputCheck(url, key, "purple elephant", APP_STRICT)).status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

describe("two servers on one config directory", () => {
  let fixture: ConfigFixture;
  let servers: RunningServer[];
  beforeAll(async () => {
    fixture = await makeConfigDir();
    const start = () =>
      startBuiltServer({ configDir: fixture.dir, port: 0, log: () => {}, encoderWorkers: 0 });
    servers = [await start(), await start()];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await fixture.cleanup();
  });

  it("both take a created, replaced and revoked key and a rebound app within seconds, failing no request", async (context) => {
    const urls = servers.map((s) => s.url);
    const load = steadyLoad(urls, fixture.keys.current);
    const windows: Record<string, number> = {};
    // The probes are made after the change: a created key is known only once it exists.
    const step = async (name: string, change: () => Promise<unknown>, probes: () => Probe[]) => {
      const since = performance.now();
      await change();
      const times = await Promise.all(
        probes().map((p) => timeToFlip(urls, p, since, { timeoutMs: WINDOW_MS })),
      );
      windows[name] = Math.max(...times);
    };
    try {
      let created!: CreatedKey;
      let previous!: CreatedKey;
      await step(
        "create",
        async () => (created = await createKey(fixture.dir, { label: "new" }, store)),
        () => [keyWorks(created.key)],
      );
      await step(
        "replace",
        async () => {
          previous = created;
          created = await createKey(fixture.dir, { replace: previous.record.id }, store);
        },
        () => [keyRefused(previous.key), keyWorks(created.key)],
      );
      await step(
        "revoke",
        () => revokeKey(fixture.dir, created.record.id, store),
        () => [keyRefused(created.key)],
      );
      await step(
        "rebind",
        () => bindApp(fixture.dir, APP_STRICT, "off", store),
        () => [appUnflagged(fixture.keys.current)],
      );
    } finally {
      const statuses = await load.stop();
      context.annotate(
        `${statuses.length} steady requests; change → both replicas: ${Object.entries(windows)
          .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
          .join(", ")}`,
      );
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    }
    for (const window of Object.values(windows)) expect(window).toBeLessThan(WINDOW_MS);
  }, 60_000);
});
