import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashKey, verifyKey } from "../../src/config/keys.js";
import { loadConfig } from "../../src/config/load.js";
import { bindApp, createApp, createKey, deleteApp, revokeKey } from "../../src/config/store.js";
import { UsageError } from "../../src/errors.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { copyFixture, problemsOf } from "./helpers.js";

const options = { registry: builtinGuardrails, now: () => new Date("2025-01-02T03:04:05.000Z") };
const load = (dir: string) => loadConfig(dir, builtinGuardrails);
const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe("key store", () => {
  it("stores only the SHA-256 of a new key, in a file only the owner can read", async () => {
    const dir = await copyFixture("valid");
    const { key, record } = await createKey(dir, { label: "ci" }, options);
    const text = await readFile(join(dir, "keys.yaml"), "utf8");
    expect(key).toMatch(/^grk_[A-Za-z0-9_-]{43}$/);
    expect(text).not.toContain(key);
    expect(text).toContain(hashKey(key));
    expect(record).toEqual({
      id: record.id,
      label: "ci",
      sha256: hashKey(key),
      created: "2025-01-02T03:04:05.000Z",
    });
    expect(await mode(join(dir, "keys.yaml"))).toBe(0o600);
  });

  it("tightens a key file that others could read when it rewrites it", async () => {
    const dir = await copyFixture("valid");
    await writeFile(join(dir, "keys.yaml"), "keys: []\n", { mode: 0o644 });
    await createKey(dir, {}, options);
    expect(await mode(join(dir, "keys.yaml"))).toBe(0o600);
  });

  it("keeps earlier keys active on rotation", async () => {
    const dir = await copyFixture("valid");
    const first = await createKey(dir, {}, options);
    const second = await createKey(dir, {}, options);
    const { keys } = await load(dir);
    expect(keys.filter((k) => !k.revoked)).toHaveLength(2);
    expect(verifyKey(first.key, keys) && verifyKey(second.key, keys)).toBe(true);
  });

  it("revokes the replaced key in the same write", async () => {
    const dir = await copyFixture("valid");
    const lost = await createKey(dir, {}, options);
    const fresh = await createKey(dir, { replace: lost.record.id }, options);
    expect(fresh.replaced?.id).toBe(lost.record.id);
    const { keys } = await load(dir);
    expect(verifyKey(lost.key, keys)).toBe(false);
    expect(verifyKey(fresh.key, keys)).toBe(true);
    expect(keys.find((k) => k.id === lost.record.id)?.revoked).toBe("2025-01-02T03:04:05.000Z");
  });

  it("refuses to replace or revoke an unknown key, and writes nothing", async () => {
    const dir = await copyFixture("valid");
    await expect(createKey(dir, { replace: "key_nothere1" }, options)).rejects.toThrow(UsageError);
    await expect(revokeKey(dir, "key_nothere1", options)).rejects.toThrow(/unknown key id "key_nothere1"/);
    await expect(stat(join(dir, "keys.yaml"))).rejects.toThrow();
  });

  it("revokes once; revoking again changes nothing", async () => {
    const dir = await copyFixture("valid");
    const { record } = await createKey(dir, {}, options);
    expect((await revokeKey(dir, record.id, options)).alreadyRevoked).toBe(false);
    const before = await readFile(join(dir, "keys.yaml"), "utf8");
    const again = await revokeKey(dir, record.id, { ...options, now: () => new Date() });
    expect(again).toMatchObject({ alreadyRevoked: true, activeLeft: 0 });
    expect(await readFile(join(dir, "keys.yaml"), "utf8")).toBe(before);
  });
});

describe("app store", () => {
  it("creates, rebinds and deletes apps, keeping hand-written comments", async () => {
    const dir = await copyFixture("valid");
    const app = await createApp(dir, { name: "mobile", profile: "default" }, options);
    expect(app.id).toMatch(/^app_/);
    expect((await load(dir)).apps.get(app.id)?.profile).toBe("default");

    await bindApp(dir, app.id, "strict", options);
    expect((await load(dir)).apps.get(app.id)?.profile).toBe("strict");

    expect((await deleteApp(dir, "app_web00001", options)).name).toBe("web");
    expect([...(await load(dir)).apps.keys()]).toEqual([app.id]);
    expect(await readFile(join(dir, "apps.yaml"), "utf8")).toContain("# hand-written comment");
  });

  it("refuses unknown profiles, unknown App IDs and a second app of the same name", async () => {
    const dir = await copyFixture("valid");
    await expect(createApp(dir, { name: "x", profile: "lenient" }, options)).rejects.toThrow(
      'unknown profile "lenient" (known: default, strict)',
    );
    await expect(createApp(dir, { name: "web", profile: "default" }, options)).rejects.toThrow(
      /already exists/,
    );
    await expect(bindApp(dir, "app_missing1", "default", options)).rejects.toThrow(/unknown App ID/);
    await expect(deleteApp(dir, "app_missing1", options)).rejects.toThrow(UsageError);
  });

  it("refuses to edit a config that does not load", async () => {
    const dir = await copyFixture("duplicate-app-ids");
    const before = await readFile(join(dir, "apps.yaml"), "utf8");
    const problems = await problemsOf(createApp(dir, { name: "new", profile: "default" }, options));
    expect(problems[0]).toMatch(/duplicate App ID/);
    expect(await readFile(join(dir, "apps.yaml"), "utf8")).toBe(before);
  });
});
