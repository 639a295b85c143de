import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { fixture } from "../config/helpers.js";
import { cli } from "./helpers.js";

describe("the CLI entry point", () => {
  it("exits 2 on commander usage errors and 0 on --help and --version", async () => {
    const unknown = await cli(["check", "--bogus", "x"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    expect((await cli(["frobnicate"])).code).toBe(2);
    expect((await cli(["serve", "--port", "http"])).stderr).toContain("--port must be a whole number");
    const help = await cli(["check", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes: 0 ran and nothing was flagged, 1 flagged");
    expect((await cli(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("prints every problem of a ConfigError", async () => {
    const run = await cli(["--config", fixture("unknown-guardrail"), "check", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: .*default\.yaml:3:3: guardrails\.keywords: unknown field/);
    const both = new ConfigError(["a.yaml: x: bad", "b.yaml: y: bad"]);
    const listed = await cli(["check", "x"], { registry: () => Promise.reject(both) });
    expect(listed).toMatchObject({
      code: 2,
      stderr: "error: invalid configuration:\n  a.yaml: x: bad\n  b.yaml: y: bad\n",
    });
  });

  it("reports unexpected errors as internal errors with exit 2", async () => {
    const run = await cli(["profiles", "list"], { registry: () => Promise.reject(new TypeError("boom")) });
    expect(run).toMatchObject({ code: 2, stderr: "internal error: boom\n" });
  });

  it("escapes control characters in messages: what a file or flag holds cannot drive the terminal", async () => {
    const run = await cli(["check", "--profile", "x\u001b[2J\r", "hi"]);
    expect(run.stderr).toBe('error: unknown profile "x\\u001b[2J\\u000d" (known: default, strict)\n');
    const internal = await cli(["profiles", "list"], {
      registry: () => Promise.reject(new Error("bad\u0007\nsecond line\tok")),
    });
    expect(internal.stderr).toBe("internal error: bad\\u0007\nsecond line\tok\n");
  });

  it("finds the config directory from GUARDRAIL_CONFIG", async () => {
    const run = await cli(["profiles", "validate"], { env: { GUARDRAIL_CONFIG: fixture("valid") } });
    expect(run.stdout).toBe(`valid: 2 profiles, 1 apps, 0 keys (${fixture("valid")})\n`);
  });
});
