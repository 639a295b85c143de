import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dashboard } from "./helpers.js";

const keysFile = (dir: string) => readFile(join(dir, "keys.yaml"), "utf8").catch(() => "");

describe("dashboard: CSRF on every change", () => {
  it("refuses a missing, wrong or other session's token with 403 and changes nothing", async () => {
    const d = await dashboard();
    await d.login();
    const other = await dashboard();
    const { csrf: foreign } = await other.login();
    for (const csrf of [null, "", "wrong", foreign]) {
      const res = await d.post("/org/keys", { label: "forged" }, { csrf });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("security token is missing or out of date");
    }
    expect(await keysFile(d.dir)).toBe("");
  });

  it("refuses a request another site made, even with the right token", async () => {
    const d = await dashboard();
    await d.login();
    const foreign: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "http://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "same-origin", origin: "http://evil.example" },
    ];
    for (const headers of foreign) {
      const res = await d.post("/org/keys", { label: "x" }, { headers });
      expect([headers, res.status]).toEqual([headers, 403]);
      expect(await res.text()).toContain("came from another site");
    }
    expect(await keysFile(d.dir)).toBe("");
  });

  it("accepts the form field or the X-CSRF-Token header from this origin", async () => {
    const d = await dashboard();
    const { cookie, csrf } = await d.login();
    const same = { "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:4817" };
    expect((await d.post("/org/keys", { label: "a" }, { headers: same })).status).toBe(303);
    // What a browser sends for a form post under Referrer-Policy: no-referrer.
    const form = { "sec-fetch-site": "same-origin", origin: "null" };
    expect((await d.post("/org/keys", { label: "a2" }, { headers: form })).status).toBe(303);
    const res = await d.post(
      "/org/keys",
      { label: "b" },
      { csrf: null, headers: { "x-csrf-token": csrf, cookie } },
    );
    expect(res.status).toBe(303);
    expect(await keysFile(d.dir)).toMatch(/label: a[\s\S]*label: a2[\s\S]*label: b/);
  });

  it("gives the logout form the session's token: logging out from another site fails", async () => {
    const d = await dashboard();
    const { cookie } = await d.login();
    expect((await d.post("/logout", {}, { csrf: "wrong" })).status).toBe(403);
    expect((await d.request("/org", { headers: { cookie } })).status).toBe(200);
  });
});
