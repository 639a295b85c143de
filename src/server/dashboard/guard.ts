import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { DashboardEnv } from "./section.js";
import { type Session, type Sessions, sameSecret } from "./sessions.js";

export const SESSION_COOKIE = "guardrail_dashboard";

/** What the dashboard's own middleware hands on, beyond the sections' contract. */
export type InternalEnv = { Variables: DashboardEnv["Variables"] & { session: Session; sessionId: string } };

/** The session of a request that passed `requireSession` (the notices a section leaves for the next page). */
export const sessionOf = (c: Context<DashboardEnv>): Session =>
  (c as unknown as Context<InternalEnv>).get("session");

const SAFE_METHODS = new Set(["GET", "HEAD"]);
export const isSafe = (method: string) => SAFE_METHODS.has(method);

/** Error pages are rendered by the app, which knows the shell; the guards only say which. */
export type Refuse = (c: Context, status: 401 | 403, reason: string) => Response | Promise<Response>;

/** Hostnames that reach only this machine. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 reaches this port,
 * but its requests say `Host: evil.example`. Only the loopback names at our port are answered.
 */
export function requireLoopbackHost(port: () => number, refuse: Refuse): MiddlewareHandler {
  return async (c, next) => {
    const host = (c.req.header("host") ?? "").toLowerCase();
    const allowed = ["127.0.0.1", "localhost", "[::1]"].map((name) => `${name}:${port()}`);
    if (!allowed.includes(host))
      return refuse(c, 403, "This dashboard answers only on 127.0.0.1, localhost or [::1] at its own port.");
    return next();
  };
}

/** Nothing past here without a live session: a page asks for the terminal's link, anything else gets 401. */
export function requireSession(sessions: Sessions, refuse: Refuse): MiddlewareHandler<InternalEnv> {
  return async (c, next) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = sessions.touch(id);
    if (!session || !id) {
      if (isSafe(c.req.method)) return c.redirect("/login", 303);
      return refuse(c, 401, "Not logged in: open the login link printed in the terminal.");
    }
    c.set("session", session);
    c.set("sessionId", id);
    c.set("csrfToken", session.csrfToken);
    return next();
  };
}

/**
 * Every change needs the session's synchronizer token (form field `csrf`, or `X-CSRF-Token` from
 * script) and, when the browser says where the request came from, that it came from this origin.
 */
export function requireCsrf(refuse: Refuse): MiddlewareHandler<InternalEnv> {
  return async (c, next) => {
    if (isSafe(c.req.method)) return next();
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const self = `http://${c.req.header("host") ?? ""}`;
    // With `Referrer-Policy: no-referrer` a browser's form post says `Origin: null`; it also sends
    // Sec-Fetch-Site, which then decides. Without it (an older client), a named origin must be ours.
    const foreign =
      site !== undefined
        ? site !== "same-origin" || (origin !== undefined && origin !== "null" && origin !== self)
        : origin !== undefined && origin !== self;
    if (foreign) return refuse(c, 403, "This request came from another site; nothing was changed.");
    const type = c.req.header("content-type") ?? "";
    const form = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)
      ? await c.req.parseBody()
      : {};
    const sent = c.req.header("x-csrf-token") ?? form.csrf;
    if (typeof sent !== "string" || !sameSecret(sent, c.get("csrfToken")))
      return refuse(
        c,
        403,
        "The form's security token is missing or out of date (the page may be from an earlier session). Reload the page and try again; nothing was changed.",
      );
    return next();
  };
}
