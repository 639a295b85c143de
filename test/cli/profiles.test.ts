import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadBundledConfig } from "../../src/config/load.js";
import { parseProfile } from "../../src/config/profile.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { fixture } from "../config/helpers.js";
import { cli, json } from "./helpers.js";

const valid = ["--config", fixture("valid")];

describe("guardrail profiles", () => {
  it("lists name, default marker, enabled guardrails and file", async () => {
    const run = await cli([...valid, "profiles", "list"]);
    expect(run.stdout).toMatch(/^default +\* +keyword +\S+default\.yaml$/m);
    expect(run.stdout).toMatch(/^strict +keyword, pii +\S+strict\.yaml$/m);
    const rows = json(await cli([...valid, "--json", "profiles", "list"])).profiles;
    expect(rows).toEqual([
      expect.objectContaining({ name: "default", default: true, enabled: ["keyword"] }),
      expect.objectContaining({ name: "strict", default: false, enabled: ["keyword", "pii"] }),
    ]);
  });

  it("shows the effective settings, defaults filled in, as YAML or JSON", async () => {
    const run = await cli([...valid, "profiles", "show", "strict"]);
    const shown = parse(run.stdout);
    expect(shown).toMatchObject({ name: "strict", default: false, on_error: "block" });
    expect(shown.guardrails.keyword.match).toBe("word");
    expect(shown.guardrails.llm).toEqual({ enabled: false });
    expect(json(await cli([...valid, "--json", "profiles", "show"])).name).toBe("default");
    expect((await cli([...valid, "profiles", "show", "nope"])).code).toBe(2);
  });

  it("shows every bundled profile (regex flags included) as YAML that is itself the same profile", async () => {
    const bundled = await loadBundledConfig(builtinGuardrails);
    expect(bundled.profiles.size).toBeGreaterThan(0);
    for (const profile of bundled.profiles.values()) {
      const run = await cli(["profiles", "show", profile.name]);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      const shown = parse(run.stdout);
      expect(shown.guardrails.regex.patterns[0].flags).toBe("i");
      const again = parseProfile(shown, { file: profile.file, stem: profile.name }, builtinGuardrails);
      expect(again).toEqual(profile);
      expect(json(await cli(["--json", "profiles", "show", profile.name])).guardrails).toEqual(
        shown.guardrails,
      );
    }
  });

  it("validates the bundled profiles when there is no config directory", async () => {
    const run = await cli(["profiles", "validate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^valid: \d+ profiles, 0 apps, 0 keys \(bundled profiles\)\n$/);
  });

  it("reports every problem with exit 2", async () => {
    const run = await cli(["--config", fixture("two-defaults"), "profiles", "validate"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("both marked default");
    const body = json(
      await cli(["--config", fixture("duplicate-app-ids"), "--json", "profiles", "validate"]),
    );
    expect(body).toEqual({ valid: false, problems: [expect.stringContaining("duplicate App ID")] });
  });
});
