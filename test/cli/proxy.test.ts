import { describe, expect, it } from "vitest";
import { runProxy } from "../../src/cli/actions/proxy.js";
import type { ServeDeps } from "../../src/cli/actions/serve.js";
import type { StartOptions } from "../../src/server/start.js";
import { fixture } from "../config/helpers.js";
import { cli, context } from "./helpers.js";

describe("guardrail proxy", () => {
  it("needs --upstream and a config directory", async () => {
    const noUpstream = await cli(["--config", fixture("valid"), "proxy"]);
    expect(noUpstream.code).toBe(2);
    expect(noUpstream.stderr).toContain("required option '--upstream <url>' not specified");
    const noConfig = await cli(["proxy", "--upstream", "http://127.0.0.1:11434/v1"]);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toContain("proxy needs a config directory");
  });

  it.each([
    ["not a URL", "api.openai.com/v1", "--upstream must be a URL such as https://api.openai.com/v1"],
    ["another scheme", "ftp://example.com/v1", "--upstream must be an http or https URL"],
    ["a query", "https://example.com/v1?key=1", "--upstream takes no query, fragment or credentials"],
  ])("refuses an upstream that is %s", async (_, upstream, message) => {
    const run = await cli(["--config", fixture("valid"), "proxy", "--upstream", upstream]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("starts with serve's flags and its own, and exits 0 once stopped", async () => {
    let started: (StartOptions & { upstream?: string; upstreamTimeoutMs?: number }) | undefined;
    const deps: ServeDeps = {
      start: async (options) => {
        started = options;
        return { port: 8088, url: "http://127.0.0.1:8088", reload: async () => true, close: async () => {} };
      },
      waitForStop: async () => "SIGINT",
    };
    const { ctx, output } = context({ config: fixture("valid") });
    const options = {
      upstream: "http://127.0.0.1:11434/v1/",
      upstreamTimeout: 5_000,
      host: "127.0.0.1",
      port: 0,
      bodyLimit: 4096,
    };
    expect(await runProxy(options, ctx, deps)).toBe(0);
    expect(started).toMatchObject({
      configDir: fixture("valid"),
      upstream: "http://127.0.0.1:11434/v1",
      upstreamTimeoutMs: 5_000,
      limits: { bodyBytes: 4096 },
    });
    expect(output().stderr).toContain("listening on http://127.0.0.1:8088");
  });
});
