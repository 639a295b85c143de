import { describe, expect, it } from "vitest";
import { type DashboardDeps, runDashboard } from "../../src/cli/actions/dashboard.js";
import type { DashboardOptions } from "../../src/server/dashboard/start.js";
import { cli, context } from "../cli/helpers.js";
import { fixture } from "../config/helpers.js";

describe("guardrail dashboard", () => {
  it("needs a config directory", async () => {
    const run = await cli(["dashboard"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("dashboard needs a config directory");
  });

  it("refuses a non-loopback --host without --allow-remote (exit 2, nothing listens)", async () => {
    const run = await cli(["dashboard", "--config", fixture("valid"), "--host", "0.0.0.0", "--port", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refusing to serve the dashboard on 0.0.0.0");
    expect(run.stderr).toContain("--allow-remote");
  });

  it("prints the one-time link on stderr, never on stdout (the log)", async () => {
    let started: DashboardOptions | undefined;
    const deps: DashboardDeps = {
      start: async (options) => {
        started = options;
        options.announce("http://127.0.0.1:4000/login?token=T0KEN", "start");
        options.announce("http://127.0.0.1:4000/login?token=N3W", "logout");
        return { port: 4000, url: "http://127.0.0.1:4000", reload: async () => true, close: async () => {} };
      },
      waitForStop: async () => "SIGINT",
    };
    const { ctx, output } = context({ config: fixture("valid") });
    const code = await runDashboard({ host: "127.0.0.1", port: 0 }, ctx, deps);
    expect(code).toBe(0);
    expect(started).toMatchObject({
      configDir: fixture("valid"),
      host: "127.0.0.1",
      port: 0,
      allowRemote: false,
    });
    const { stdout, stderr } = output();
    expect(stderr).toContain("open http://127.0.0.1:4000/login?token=T0KEN (works once; Ctrl-C to stop)");
    expect(stderr).toContain("logged out; a new one-time login link: http://127.0.0.1:4000/login?token=N3W");
    expect(stdout).toBe("");
  });
});
