import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../src/server/dashboard/headers.js";
import type { Section } from "../../src/server/dashboard/section.js";
import { dashboardSections } from "../../src/server/dashboard/sections.js";
import { dashboard, HOST } from "./helpers.js";

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function expectHardened(res: Response, what: string) {
  const h = res.headers;
  expect([what, h.get("content-security-policy")]).toEqual([what, CSP]);
  expect([what, h.get("x-content-type-options")]).toEqual([what, "nosniff"]);
  expect([what, h.get("referrer-policy")]).toEqual([what, "no-referrer"]);
  expect([what, h.get("cache-control")]).toEqual([what, "no-store"]);
}

/** A section whose page throws: the error page must carry the headers too. */
const broken: Section = {
  id: "reports",
  label: "Broken",
  path: "/broken",
  register(app) {
    app.get("/broken", () => {
      throw new Error("boom");
    });
  },
};

describe("dashboard: headers on every response", () => {
  it("sets the CSP and the hardening headers on pages, assets, redirects and every error", async () => {
    expect(CONTENT_SECURITY_POLICY).toBe(CSP);
    const d = await dashboard({ sections: [...dashboardSections(), broken] });
    const anonymous = {
      "asset css": await d.request("/assets/dashboard.css"),
      "asset js": await d.request("/assets/dashboard.js"),
      "login help (401)": await d.request("/login"),
      "redirect to login": await d.request("/org"),
      "401 change": await d.post("/org/keys", {}),
      "wrong host (403)": await d.request("/org", { headers: { host: "evil.example" } }),
    };
    const { response: login } = await d.login();
    const cookie = d.session?.cookie ?? "";
    const signedIn = {
      "login (303)": login,
      page: await d.request("/org", { headers: { cookie } }),
      "not found": await d.request("/nope", { headers: { cookie } }),
      "csrf 403": await d.post("/org/keys", {}, { csrf: "x" }),
      "internal error": await d.request("/broken", { headers: { cookie } }),
      "conflict 409": await d.post("/apps/delete", { id: "app_gone_gone_gone" }),
    };
    for (const [what, res] of Object.entries({ ...anonymous, ...signedIn })) expectHardened(res, what);
    expect(signedIn["not found"].status).toBe(404);
    expect(signedIn["internal error"].status).toBe(500);
    expect(await signedIn["internal error"].text()).not.toContain("boom");
    expect(d.logs.some((r) => r.error === "Error: boom")).toBe(true);
    expect(anonymous["asset css"].headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(anonymous["asset js"].headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it("has no inline script, style or handler, and loads nothing from elsewhere", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    for (const path of ["/org", "/apps", "/try", "/login"]) {
      const headers = path === "/login" ? {} : { cookie };
      const page = await (await d.request(path, { headers })).text();
      expect(page).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/)/);
      expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(page).not.toMatch(/(src|href|action)="(https?:)?\/\//);
      expect(page).toContain("<main");
    }
  });

  it("refuses a Host header other than this port's loopback names (DNS rebinding)", async () => {
    const d = await dashboard();
    for (const host of ["evil.example", "evil.example:4817", "127.0.0.1:1", "127.0.0.2:4817", ""]) {
      const res = await d.request(`/login?token=${d.token()}`, { headers: { host } });
      expect([host, res.status]).toEqual([host, 403]);
    }
    for (const host of [HOST, "localhost:4817", "[::1]:4817"])
      expect((await d.request("/login", { headers: { host } })).status).toBe(401);
    const remote = await dashboard({ remote: true });
    expect((await remote.request("/login", { headers: { host: "dash.example.com" } })).status).toBe(401);
  });

  it("marks the current section in the nav", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    const page = await (await d.request("/apps", { headers: { cookie } })).text();
    expect(page).toContain('<a href="/apps" aria-current="page">Apps</a>');
    expect(page).toContain('<a href="/org">Org Settings</a>');
    expect(page.match(/aria-current/g)).toHaveLength(1);
  });
});
