import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { loadConfigOffThread } from "../../src/config/load-off-thread.js";
import { ConfigError } from "../../src/errors.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { fixture, problemsOf } from "./helpers.js";

describe("loadConfigOffThread", () => {
  it("gives what loadConfig gives", async () => {
    expect(await loadConfigOffThread(fixture("valid"))).toEqual(
      await loadConfig(fixture("valid"), builtinGuardrails),
    );
  });

  it("throws a ConfigError with every problem, as loadConfig does", async () => {
    const error = await loadConfigOffThread(fixture("broken-profile-bound-by-apps")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      await problemsOf(loadConfig(fixture("broken-profile-bound-by-apps"), builtinGuardrails)),
    );
  });
});
