import { describe, expect, it } from "vitest";
import { runServe, type ServeDeps } from "../../src/cli/actions/serve.js";
import type { ServeOptions } from "../../src/cli/commands/serve.js";
import type { StartOptions } from "../../src/server/start.js";
import { fixture } from "../config/helpers.js";
import { cli, context } from "./helpers.js";

describe("guardrail serve", () => {
  it("needs a config directory and says how to make one", async () => {
    const run = await cli(["serve"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("guardrail init");
    expect(run.stderr).toContain("guardrail keys create");
  });

  it("starts the server with the flags, prints where it listens, and exits 0 once stopped", async () => {
    let started: StartOptions | undefined;
    const deps: ServeDeps = {
      start: async (options) => {
        started = options;
        return { port: 4321, url: "http://127.0.0.1:4321", reload: async () => true, close: async () => {} };
      },
      waitForStop: async () => "SIGTERM",
    };
    const { ctx, output } = context({ config: fixture("valid") });
    const code = await runServe(
      { host: "127.0.0.1", port: 0, bodyLimit: 2048, maxConnections: 50 },
      ctx,
      deps,
    );
    expect(code).toBe(0);
    expect(started).toMatchObject({
      configDir: fixture("valid"),
      port: 0,
      limits: { bodyBytes: 2048 },
      connections: { maxConnections: 50 },
    });
    expect(output().stderr).toContain("listening on http://127.0.0.1:4321");
    expect(output().stderr).toContain("stopped (SIGTERM)");
  });

  it("passes GUARDRAIL_ENCODER_PRECISION to the server, and refuses a value that is not one", async () => {
    const starts: StartOptions[] = [];
    const deps: ServeDeps = {
      start: async (options) => {
        starts.push(options);
        return { port: 4321, url: "http://127.0.0.1:4321", reload: async () => true, close: async () => {} };
      },
      waitForStop: async () => "SIGTERM",
    };
    for (const env of [{}, { GUARDRAIL_ENCODER_PRECISION: "fp32" }] as Record<string, string>[]) {
      const { ctx } = context({ config: fixture("valid"), env });
      expect(await runServe({ host: "127.0.0.1", port: 0 }, ctx, deps)).toBe(0);
    }
    expect(starts.map((s) => s.encoderPrecision)).toEqual(["int8", "fp32"]);
    const run = await cli(["--config", fixture("valid"), "serve"], {
      env: { GUARDRAIL_ENCODER_PRECISION: "int4" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'GUARDRAIL_ENCODER_PRECISION: "int4" is not an encoder precision; use fp32 or int8',
    );
  });

  it("refuses a --max-connections that is not a whole number of at least 1", async () => {
    for (const bad of ["0", "-3", "ten"]) {
      const run = await cli(["--config", fixture("valid"), "serve", "--max-connections", bad]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--max-connections must be a whole number from 1");
    }
  });

  it("serves metrics on their own port when asked, on loopback unless --metrics-host says otherwise", async () => {
    const starts: StartOptions[] = [];
    const deps: ServeDeps = {
      start: async (options) => {
        starts.push(options);
        const metrics = options.metrics && { metricsUrl: `http://${options.metrics.host}:9464/metrics` };
        return {
          port: 4321,
          url: "http://127.0.0.1:4321",
          ...metrics,
          reload: async () => true,
          close: async () => {},
        };
      },
      waitForStop: async () => "SIGTERM",
    };
    const serve = async (flags: Partial<ServeOptions>) => {
      const { ctx, output } = context({ config: fixture("valid") });
      expect(await runServe({ host: "127.0.0.1", port: 0, ...flags }, ctx, deps)).toBe(0);
      return output().stderr;
    };
    expect(await serve({})).not.toContain("metrics at");
    expect(await serve({ metricsPort: 9464 })).toContain("metrics at http://127.0.0.1:9464/metrics");
    await serve({ metricsPort: 0, metricsHost: "0.0.0.0" });
    expect(starts.map((s) => s.metrics)).toEqual([
      undefined,
      { port: 9464, host: "127.0.0.1" },
      { port: 0, host: "0.0.0.0" },
    ]);

    const run = await cli(["--config", fixture("valid"), "serve", "--metrics-host", "0.0.0.0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--metrics-host needs --metrics-port");
  });

  it("names --metrics-port when it is the metrics port that is in use", async () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE", port: 9464 });
    const deps: ServeDeps = { start: () => Promise.reject(inUse), waitForStop: async () => "SIGTERM" };
    const { ctx } = context({ config: fixture("valid") });
    await expect(runServe({ host: "127.0.0.1", port: 8080, metricsPort: 9464 }, ctx, deps)).rejects.toThrow(
      "127.0.0.1:9464 is already in use; pick another --metrics-port",
    );
  });

  it("turns a port in use into a usage error", async () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" });
    const deps: ServeDeps = { start: () => Promise.reject(inUse), waitForStop: async () => "SIGTERM" };
    const { ctx } = context({ config: fixture("valid") });
    await expect(runServe({ host: "127.0.0.1", port: 8080 }, ctx, deps)).rejects.toThrow(
      "127.0.0.1:8080 is already in use",
    );
  });
});
