import { describe, expect, it } from "vitest";
import { maskAppId } from "../../src/config/apps.js";
import { cli, initDir, json } from "./helpers.js";

describe("guardrail apps", () => {
  it("creates an app, lists it masked or revealed, rebinds and deletes it", async () => {
    const dir = await initDir();
    const g = (...argv: string[]) => cli(["--config", dir, ...argv]);
    const created = await g("apps", "create", "web", "--profile", "default");
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^app_[A-Za-z0-9_-]+$/);

    const masked = await g("apps", "list");
    expect(masked.stdout).toContain(maskAppId(id));
    expect(masked.stdout).not.toContain(id);
    expect((await g("apps", "list", "--reveal")).stdout).toMatch(new RegExp(`web +${id} +default`));
    expect(json(await g("--json", "apps", "list", "--reveal")).apps).toEqual([
      expect.objectContaining({ name: "web", id, profile: "default" }),
    ]);

    expect((await g("apps", "bind", id, "--profile", "default")).stdout).toContain('bound app "web"');
    expect((await g("apps", "delete", id)).code).toBe(0);
    expect((await g("apps", "list")).stdout).toContain("no apps");
  });

  it("exits 2 for an unknown profile, an unknown App ID or a missing --profile", async () => {
    const dir = await initDir();
    const unknown = await cli(["--config", dir, "apps", "create", "web", "--profile", "strict"]);
    expect(unknown).toMatchObject({ code: 2, stderr: 'error: unknown profile "strict" (known: default)\n' });
    expect((await cli(["--config", dir, "apps", "delete", "app_nothere1"])).code).toBe(2);
    const missing = await cli(["--config", dir, "apps", "create", "web"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--profile <name>'");
  });
});
