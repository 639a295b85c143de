import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { createDashboardApp } from "../../src/server/dashboard/app.js";
import type { Section } from "../../src/server/dashboard/section.js";
import { dashboardSections } from "../../src/server/dashboard/sections.js";
import { createSessions, type SessionOptions } from "../../src/server/dashboard/sessions.js";
import type { LogRecord } from "../../src/server/types.js";
import { copyFixture } from "../config/helpers.js";

/** The port the in-process dashboard pretends to listen on: its Host header check wants it. */
export const PORT = 4817;
export const HOST = `127.0.0.1:${PORT}`;

export interface Harness {
  readonly dir: string;
  readonly logs: LogRecord[];
  /** A request as a browser on this machine sends it (Host names the dashboard). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** The current one-time login token (a new one after each logout). */
  token(): string;
  /** Logs in with the token: the session cookie and the CSRF token of its pages. */
  login(): Promise<{ cookie: string; csrf: string; response: Response }>;
  /** A form POST with the session and its CSRF token (override either to forge one). */
  post(
    path: string,
    fields: Record<string, string>,
    as?: { cookie?: string; csrf?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  session?: { cookie: string; csrf: string };
}

export async function dashboard(
  options: { fixture?: string; sections?: Section[]; sessions?: SessionOptions; remote?: boolean } = {},
): Promise<Harness> {
  const dir = await copyFixture(options.fixture ?? "valid");
  const logs: LogRecord[] = [];
  const sessions = createSessions(options.sessions);
  let token = sessions.issueLoginToken();
  const app = createDashboardApp({
    deps: { configDir: dir, registry: builtinGuardrails, now: () => new Date("2026-11-27T12:00:00Z") },
    sections: options.sections ?? dashboardSections(),
    sessions,
    log: (record) => logs.push(record),
    ...(options.remote ? {} : { loopbackPort: () => PORT }),
    onLogout: () => {
      token = sessions.issueLoginToken();
    },
  });
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("host")) headers.set("host", HOST);
    return Promise.resolve(app.request(`http://${HOST}${path}`, { ...init, headers }));
  };
  const harness: Harness = {
    dir,
    logs,
    request,
    token: () => token,
    async login() {
      const res = await request(`/login?token=${token}`);
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const page = await (await request("/org", { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
      harness.session = { cookie, csrf };
      return { ...harness.session, response: res };
    },
    post(path, fields, as = {}) {
      const cookie = as.cookie ?? harness.session?.cookie ?? "";
      const csrf = as.csrf === undefined ? harness.session?.csrf : as.csrf;
      const body = new URLSearchParams({
        ...(csrf === null || csrf === undefined ? {} : { csrf }),
        ...fields,
      });
      return request(path, {
        method: "POST",
        body,
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...as.headers },
      });
    },
  };
  return harness;
}

/** The text of `<main>`, tags dropped, whitespace collapsed: what a reader of the page sees. */
export function mainText(page: string): string {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(page)?.[1] ?? page;
  return main
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}
