import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SECTIONS_CSS } from "../../src/server/dashboard/assets/sections-styles.js";
import { dashboard } from "./helpers.js";

/** The Guardrails and Reports sections behind the real dashboard's session, CSRF and headers. */
describe("Guardrails and Reports mounted in the dashboard", () => {
  it("are closed without a session", async () => {
    const d = await dashboard();
    const page = await d.request("/guardrails/default");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/login");
    const check = await d.request("/guardrails/validate-regex", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pattern: "a" }),
    });
    expect(check.status).toBe(401);
  });

  it("refuse a change with a wrong CSRF token, and write nothing", async () => {
    const d = await dashboard();
    await d.login();
    const file = join(d.dir, "profiles", "default.yaml");
    const before = await readFile(file, "utf8");
    const page = await (
      await d.request("/guardrails/default", { headers: { cookie: d.session?.cookie ?? "" } })
    ).text();
    expect(page).toContain('<a href="/guardrails" aria-current="page">Guardrails</a>');
    const sha256 = /name="sha256" value="([0-9a-f]{64})"/.exec(page)?.[1] ?? "";
    const fields = { sha256, "keyword.enabled": "on", "keyword.keywords": "changed", "llm.enabled": "on" };
    expect((await d.post("/guardrails/default", fields, { csrf: "forged" })).status).toBe(403);
    expect(
      (
        await d.post(
          "/reports/apply",
          { guardrail: "llm", threshold: "0.1", profile: "default" },
          { csrf: null },
        )
      ).status,
    ).toBe(403);
    expect(await readFile(file, "utf8")).toBe(before);
    expect((await d.post("/guardrails/default", fields)).status).toBe(303);
    expect(await readFile(file, "utf8")).toContain("keywords: [changed]");
  });

  it("answer the live regex check only with the session's token in X-CSRF-Token", async () => {
    const d = await dashboard();
    const { cookie, csrf } = await d.login();
    const check = (headers: Record<string, string>) =>
      d.request("/guardrails/validate-regex", {
        method: "POST",
        headers: { cookie, "content-type": "application/json", "sec-fetch-site": "same-origin", ...headers },
        body: JSON.stringify({ pattern: "(?=a)" }),
      });
    expect((await check({})).status).toBe(403);
    const res = await check({ "x-csrf-token": csrf });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await res.json()).toMatchObject({ valid: false, errors: [{ field: "pattern" }] });
  });

  it("have their script and their form styles among the dashboard's assets, under its headers", async () => {
    const d = await dashboard();
    const js = await d.request("/assets/guardrails.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await js.text()).toContain('"/guardrails/validate-regex"');
    const css = await d.request("/assets/dashboard.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toContain(SECTIONS_CSS);
  });
});
