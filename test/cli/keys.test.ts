import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, initDir, json } from "./helpers.js";

describe("guardrail keys", () => {
  it("prints a new key once on stdout and stores only its hash", async () => {
    const dir = await initDir();
    const run = await cli(["--config", dir, "keys", "create", "--label", "prod"]);
    expect(run.code).toBe(0);
    const key = run.stdout.trim();
    expect(key).toMatch(/^grk_\S+$/);
    expect(run.stderr).toContain("shown once");
    expect(await readFile(join(dir, "keys.yaml"), "utf8")).not.toContain(key);
  });

  it("prints {id,label,created,key} with --json", async () => {
    const dir = await initDir();
    const body = json(await cli(["--config", dir, "keys", "create", "--json"]));
    expect(Object.keys(body)).toEqual(["id", "label", "created", "key"]);
  });

  it("lists keys with their status and never a hash or key", async () => {
    const dir = await initDir();
    const first = json(await cli(["--config", dir, "--json", "keys", "create", "--label", "old"]));
    const second = json(
      await cli(["--config", dir, "--json", "keys", "create", "--replace", String(first.id)]),
    );
    const list = await cli(["--config", dir, "keys", "list"]);
    expect(list.stdout).toMatch(new RegExp(`${first.id} +old +\\S+ +revoked \\S+`));
    expect(list.stdout).toMatch(new RegExp(`${second.id} +\\S+ +active`));
    expect(list.stdout).not.toMatch(/[0-9a-f]{64}|grk_/);
    const listed = json(await cli(["--config", dir, "--json", "keys", "list"])).keys as object[];
    expect(listed.map((k) => Object.keys(k).sort())).toEqual([
      ["created", "id", "label", "revoked", "status"],
      ["created", "id", "label", "status"],
    ]);
  });

  it("revokes a key, warns when none is left, and exits 2 on an unknown id", async () => {
    const dir = await initDir();
    const { id } = json(await cli(["--config", dir, "--json", "keys", "create"]));
    const run = await cli(["--config", dir, "keys", "revoke", String(id)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^revoked ${id} at `));
    expect(run.stderr).toContain("no active key is left");
    const unknown = await cli(["--config", dir, "keys", "revoke", "key_00000000"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown key id "key_00000000"');
  });

  it("needs a config directory", async () => {
    const run = await cli(["keys", "create"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("guardrail init");
  });
});
