import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, emptyDir, json } from "./helpers.js";

describe("guardrail init", () => {
  it("writes the bundled default profile and an empty apps.yaml, then says what to run", async () => {
    const cwd = await emptyDir();
    const run = await cli(["init"], { cwd });
    expect(run.code).toBe(0);
    const bundled = await readFile(join(import.meta.dirname, "../../profiles/default.yaml"), "utf8");
    expect(await readFile(join(cwd, "guardrail/profiles/default.yaml"), "utf8")).toBe(bundled);
    expect(await readFile(join(cwd, "guardrail/apps.yaml"), "utf8")).toMatch(/^apps: \[\]$/m);
    await expect(readFile(join(cwd, "guardrail/keys.yaml"))).rejects.toThrow();
    // ./guardrail is found without --config, so the next steps do not need it.
    expect(run.stdout).toContain("\n  npx guardrail keys create");
    expect(run.stdout).toMatch(/apps create .*serve.*check/s);
    expect((await cli(["profiles", "validate"], { cwd })).stdout).toMatch(
      /^valid: 1 profiles, 0 apps, 0 keys/,
    );
  });

  it("refuses to overwrite a config unless --force, which keeps the keys", async () => {
    const cwd = await emptyDir();
    await cli(["init", "cfg"], { cwd });
    await cli(["--config", "cfg", "keys", "create"], { cwd });
    await writeFile(join(cwd, "cfg/profiles/default.yaml"), "default: true\n");

    const again = await cli(["init", "cfg"], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds a config");

    const forced = json(await cli(["--json", "init", "cfg", "--force"], { cwd }));
    expect(forced.kept).toEqual([join(cwd, "cfg/keys.yaml")]);
    expect(await readFile(join(cwd, "cfg/profiles/default.yaml"), "utf8")).toContain("keyword:");
    expect(forced.next).toContain("npx guardrail --config cfg keys create --label production");
  });

  it("makes the directory and profiles/ private (0700) even under umask 000", async () => {
    const cwd = await emptyDir();
    const before = process.umask(0);
    try {
      expect((await cli(["init", "cfg"], { cwd })).code).toBe(0);
      await cli(["--config", "cfg", "keys", "create"], { cwd });
    } finally {
      process.umask(before);
    }
    const mode = async (path: string) => (await stat(join(cwd, path))).mode & 0o777;
    expect(await mode("cfg")).toBe(0o700);
    expect(await mode("cfg/profiles")).toBe(0o700);
    expect(await mode("cfg/keys.yaml")).toBe(0o600);
    expect((await mode("cfg/apps.yaml")) & 0o022).toBe(0);
  });

  it("warns, and leaves it alone, when an existing directory is writable by others", async () => {
    const cwd = await emptyDir();
    await mkdir(join(cwd, "shared"));
    await chmod(join(cwd, "shared"), 0o777);
    const run = await cli(["init", "shared"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: shared is writable by group or others");
    expect(run.stderr).toContain("chmod 700 shared");
    expect((await stat(join(cwd, "shared"))).mode & 0o777).toBe(0o777);
    expect((await stat(join(cwd, "shared/profiles"))).mode & 0o777).toBe(0o700);
  });
});
