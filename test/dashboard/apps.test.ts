import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { maskAppId } from "../../src/config/apps.js";
import { loadConfig } from "../../src/config/load.js";
import { bindApp, createApp, deleteApp } from "../../src/config/store.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { dashboard, mainText } from "./helpers.js";

const store = { registry: builtinGuardrails };
const apps = async (dir: string) => [...(await loadConfig(dir, builtinGuardrails)).apps.values()];

describe("dashboard: Apps", () => {
  it("creates an app, shows its ID masked with a reveal control, rebinds and deletes it", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    const before = (await apps(d.dir)).length;
    expect((await d.post("/apps", { name: "Support bot", profile: "strict" })).status).toBe(303);
    const created = (await apps(d.dir)).find((a) => a.name === "Support bot");
    if (!created) throw new Error("not created");
    expect(created.profile).toBe("strict");
    const page = await (await d.request("/apps", { headers: { cookie } })).text();
    expect(mainText(page)).toContain('Created app "Support bot" bound to profile strict');
    const cell = new RegExp(
      `<code id="(app-id-\\d+)" data-masked="([^"]+)" data-full="${created.id}">([^<]+)</code>`,
    ).exec(page);
    expect(cell?.[2]).toBe(maskAppId(created.id));
    expect(cell?.[3]).toBe(maskAppId(created.id));
    expect(page).toContain(`<button type="button" data-reveal="${cell?.[1]}"`);

    expect((await d.post("/apps/bind", { id: created.id, from: "strict", profile: "default" })).status).toBe(
      303,
    );
    expect((await apps(d.dir)).find((a) => a.id === created.id)?.profile).toBe("default");
    expect((await d.post("/apps/delete", { id: created.id })).status).toBe(303);
    expect(await apps(d.dir)).toHaveLength(before);
  });

  it("refuses a change to an app the CLI deleted or rebound meanwhile, and writes nothing", async () => {
    const d = await dashboard();
    await d.login();
    const app = await createApp(d.dir, { name: "Billing", profile: "default" }, store);
    await deleteApp(d.dir, app.id, store); // the CLI, after the page loaded
    const file = await readFile(join(d.dir, "apps.yaml"), "utf8");
    for (const [path, fields] of [
      ["/apps/bind", { id: app.id, from: "default", profile: "strict" }],
      ["/apps/delete", { id: app.id }],
    ] as const) {
      const res = await d.post(path, fields);
      expect(res.status).toBe(409);
      const text = mainText(await res.text());
      expect(text).toContain(`App ${maskAppId(app.id)} was not changed: it no longer exists`);
      expect(text).toContain("Nothing was changed.");
    }
    expect(await readFile(join(d.dir, "apps.yaml"), "utf8")).toBe(file);

    const moved = await createApp(d.dir, { name: "Search", profile: "default" }, store);
    await bindApp(d.dir, moved.id, "strict", store);
    const res = await d.post("/apps/bind", { id: moved.id, from: "default", profile: "default" });
    expect(res.status).toBe(409);
    expect(mainText(await res.text())).toContain(
      "its profile changed outside the dashboard (the page showed default, it is now strict)",
    );
    expect((await apps(d.dir)).find((a) => a.id === moved.id)?.profile).toBe("strict");
  });

  it("refuses an unknown profile and a duplicate name with the store's message", async () => {
    const d = await dashboard();
    await d.login();
    const unknown = await d.post("/apps", { name: "X", profile: "nope" });
    expect(unknown.status).toBe(409);
    expect(mainText(await unknown.text())).toContain('unknown profile "nope" (known: default, strict)');
    await d.post("/apps", { name: "Twice", profile: "default" });
    const twice = await d.post("/apps", { name: "Twice", profile: "default" });
    expect(mainText(await twice.text())).toContain('an app named "Twice" already exists');
    expect((await d.post("/apps", { name: " ", profile: "default" })).status).toBe(409);
  });
});
