import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { type RunningDashboard, startDashboard } from "../../src/server/dashboard/start.js";
import type { LogRecord } from "../../src/server/types.js";
import { copyFixture } from "../config/helpers.js";

const run = promisify(execFile);
const running: RunningDashboard[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.close()));
});

async function start(options: { host?: string; allowRemote?: boolean } = {}) {
  const configDir = await copyFixture("valid");
  const logs: LogRecord[] = [];
  const links: string[] = [];
  const dashboard = await startDashboard({
    configDir,
    registry: builtinGuardrails,
    port: 0,
    ...options,
    log: (record) => logs.push(record),
    announce: (link) => links.push(link),
  });
  running.push(dashboard);
  return { dashboard, logs, links, base: `http://127.0.0.1:${dashboard.port}` };
}

/** curl's status code for a request; `args` go before the URL. */
async function curlStatus(url: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", ...args, url]);
  return stdout;
}

describe("dashboard over TCP", () => {
  it("logs in with the printed link, creates a key, and no secret reaches the log", async () => {
    const { logs, links, base } = await start();
    const link = links[0] ?? "";
    expect(link).toMatch(new RegExp(`^${base}/login\\?token=[A-Za-z0-9_-]{43}$`));
    const token = new URL(link).searchParams.get("token") ?? "";
    const login = await fetch(link, { redirect: "manual" });
    expect(login.status).toBe(303);
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain("HttpOnly; SameSite=Strict");
    const cookie = setCookie.split(";")[0] ?? "";
    const sessionId = cookie.split("=")[1] ?? "";
    expect((await fetch(link, { redirect: "manual" })).status).toBe(401);

    const page = await (await fetch(`${base}/org`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const created = await fetch(`${base}/org/keys`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, label: "tcp" }),
      redirect: "manual",
    });
    expect(created.status).toBe(303);
    const shown = await (await fetch(`${base}/org`, { headers: { cookie } })).text();
    const key = /grk_[A-Za-z0-9_-]{43}/.exec(shown)?.[0] ?? "";
    expect(key).not.toBe("");

    const logged = JSON.stringify(logs);
    expect(logs.length).toBeGreaterThanOrEqual(5);
    for (const secret of [token, sessionId, csrf, key]) {
      expect(secret.length).toBeGreaterThan(20);
      expect(logged).not.toContain(secret);
    }
    expect(logs.map((r) => `${r.method} ${r.path} ${r.status}`)).toContain("POST /org/keys 303");
  });

  it("answers curl: wrong Host 403, no session 303/401, assets with the CSP", async () => {
    const { base } = await start();
    expect(await curlStatus(`${base}/login`, "-H", "Host: evil.example")).toBe("403");
    expect(await curlStatus(`${base}/org`)).toBe("303");
    expect(await curlStatus(`${base}/org/keys`, "-d", "label=x")).toBe("401");
    const { stdout } = await run("curl", [
      "-s",
      "-D",
      "-",
      "-o",
      "/dev/null",
      `${base}/assets/dashboard.css`,
    ]);
    expect(stdout).toMatch(/^content-security-policy: default-src 'none'; script-src 'self'/im);
    expect(stdout).toMatch(/^cache-control: no-store/im);
  });

  it("refuses a non-loopback address unless --allow-remote, which also lifts the Host check", async () => {
    await expect(start({ host: "0.0.0.0" })).rejects.toThrow(UsageError);
    await expect(start({ host: "192.168.1.10" })).rejects.toThrow(
      /loopback only .* unless you pass --allow-remote/,
    );
    const { dashboard, links } = await start({ host: "0.0.0.0", allowRemote: true });
    expect(links[0]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${dashboard.port}/login\\?token=`));
    expect(await curlStatus(`http://127.0.0.1:${dashboard.port}/login`, "-H", "Host: dash.example.com")).toBe(
      "401",
    );
  });
});
