import { readFile, writeFile } from "node:fs/promises";
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
    expect(run.stdout).toContain("\n  guardrail keys create");
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
    expect(forced.next).toContain("guardrail --config cfg keys create --label production");
  });
});
