import { describe, expect, it } from "vitest";
import { dashboard } from "./helpers.js";

const PAGES = ["/", "/org", "/apps", "/try", "/guardrails", "/no-such-page", "/logout"];
const CHANGES = ["/logout", "/org/keys", "/org/keys/revoke", "/apps", "/apps/bind", "/apps/delete", "/try"];

describe("dashboard: the one-time link and the session", () => {
  it("sends every page to the login help and refuses every change without a session", async () => {
    const d = await dashboard();
    for (const path of PAGES) {
      const res = await d.request(path);
      expect([path, res.status, res.headers.get("location")]).toEqual([path, 303, "/login"]);
    }
    for (const path of CHANGES) {
      const res = await d.post(path, { label: "x", id: "x" }, { cookie: "", csrf: "anything" });
      expect([path, res.status]).toEqual([path, 401]);
      expect(await res.text()).toContain("login link printed in the terminal");
    }
    const help = await d.request("/login");
    expect(help.status).toBe(401);
    expect(await help.text()).toContain("one-time login link");
  });

  it("exchanges the token once for an HttpOnly, SameSite=Strict session cookie and drops it from the address", async () => {
    const d = await dashboard();
    const token = d.token();
    const first = await d.request(`/login?token=${token}`);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^guardrail_dashboard=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(token);
    const again = await d.request(`/login?token=${token}`);
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("used already or is not valid");
    const page = await d.request("/org", { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(page.status).toBe(200);
  });

  it("refuses a wrong or empty token and a forged session cookie", async () => {
    const d = await dashboard();
    expect((await d.request(`/login?token=${d.token()}x`)).status).toBe(401);
    expect((await d.request("/login?token=")).status).toBe(401);
    const forged = await d.request("/org", { headers: { cookie: "guardrail_dashboard=AAAA" } });
    expect(forged.status).toBe(303);
    // The right token still works once after wrong guesses.
    expect((await d.request(`/login?token=${d.token()}`)).status).toBe(303);
  });

  it("forgets a session left idle too long", async () => {
    let now = 0;
    const d = await dashboard({ sessions: { idleMs: 1000, clock: () => now } });
    const { cookie } = await d.login();
    now = 900;
    expect((await d.request("/org", { headers: { cookie } })).status).toBe(200);
    now = 1800; // 900 ms after the last use: still alive
    expect((await d.request("/org", { headers: { cookie } })).status).toBe(200);
    now = 2900;
    expect((await d.request("/org", { headers: { cookie } })).status).toBe(303);
  });

  it("logs out with a POST only; the session is gone and a new link is issued", async () => {
    const d = await dashboard();
    const before = d.token();
    const { cookie } = await d.login();
    expect((await d.request("/logout", { headers: { cookie } })).status).toBe(404);
    const out = await d.post("/logout", {});
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login");
    expect(out.headers.get("set-cookie")).toMatch(/^guardrail_dashboard=; Max-Age=0; Path=\//);
    expect((await d.request("/org", { headers: { cookie } })).status).toBe(303);
    expect(d.token()).not.toBe(before);
    expect((await d.request(`/login?token=${before}`)).status).toBe(401);
  });
});
