import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { createKey, revokeKey } from "../../src/config/store.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { dashboard, mainText } from "./helpers.js";

const KEY = /grk_[A-Za-z0-9_-]{43}/;
const store = { registry: builtinGuardrails };

describe("dashboard: Org Settings", () => {
  it("shows a new key once, with a copy button; the next load lists it masked", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    const created = await d.post("/org/keys", { label: "production" });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe("/org");
    const first = await (await d.request("/org", { headers: { cookie } })).text();
    const key = KEY.exec(first)?.[0] ?? "";
    expect(key).not.toBe("");
    expect(first).toContain('data-copy="new-key"');
    expect(mainText(first)).toContain("It is shown this once");
    const again = await (await d.request("/org", { headers: { cookie } })).text();
    expect(again).not.toMatch(KEY);
    expect(mainText(again)).toContain("production");
    expect(again).toContain("grk_••••••••");
    const { keys } = await loadConfig(d.dir, builtinGuardrails);
    expect(keys).toHaveLength(1);
    // Never the key, never the whole hash: a prefix tells keys apart.
    expect(again).not.toContain(keys[0]?.sha256);
    expect(again).toContain(keys[0]?.sha256.slice(0, 8));
    const file = await readFile(join(d.dir, "keys.yaml"), "utf8");
    expect(file).not.toContain(key);
  });

  it("revokes a key, and replaces a lost one in one write as `keys create --replace` does", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    const old = await createKey(d.dir, { label: "old" }, store);
    const other = await createKey(d.dir, { label: "other" }, store);
    expect((await d.post("/org/keys", { replace: old.record.id, label: "old" })).status).toBe(303);
    const page = mainText(await (await d.request("/org", { headers: { cookie } })).text());
    expect(page).toContain(`Revoked ${old.record.id}: requests using it now get 401.`);
    let { keys } = await loadConfig(d.dir, builtinGuardrails);
    expect(keys.map((k) => [k.label, k.revoked !== undefined])).toEqual([
      ["old", true],
      ["other", false],
      ["old", false],
    ]);
    expect((await d.post("/org/keys/revoke", { id: other.record.id })).status).toBe(303);
    ({ keys } = await loadConfig(d.dir, builtinGuardrails));
    expect(keys[1]?.revoked).toBeDefined();
  });

  it("says so when the key was revoked or removed outside the dashboard meanwhile", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    const { record } = await createKey(d.dir, { label: "ci" }, store);
    await revokeKey(d.dir, record.id, store); // the CLI, after the page loaded
    await d.post("/org/keys/revoke", { id: record.id });
    const page = mainText(await (await d.request("/org", { headers: { cookie } })).text());
    expect(page).toContain(`Key ${record.id} was already revoked`);
    const replaced = await d.post("/org/keys", { replace: record.id });
    expect(replaced.status).toBe(409);
    expect(mainText(await replaced.text())).toContain(
      `Key ${record.id} was not replaced; nothing was changed.`,
    );
    const gone = await d.post("/org/keys/revoke", { id: "key_000000000000" });
    expect(gone.status).toBe(409);
    expect(mainText(await gone.text())).toContain('unknown key id "key_000000000000"');
    expect((await loadConfig(d.dir, builtinGuardrails)).keys).toHaveLength(1);
  });
});
