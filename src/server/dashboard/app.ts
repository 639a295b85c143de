import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Logger } from "../types.js";
import { registerAssets } from "./assets.js";
import {
  type InternalEnv,
  type Refuse,
  requireCsrf,
  requireLoopbackHost,
  requireSession,
  SESSION_COOKIE,
} from "./guard.js";
import { securityHeaders } from "./headers.js";
import { fragment, notice } from "./html.js";
import { createRenderPage, loginHelp, plainPage } from "./layout.js";
import { requestLog } from "./request-log.js";
import type { DashboardDeps, DashboardEnv, Section } from "./section.js";
import type { Sessions } from "./sessions.js";

export interface DashboardAppOptions {
  readonly deps: DashboardDeps;
  readonly sections: readonly Section[];
  readonly sessions: Sessions;
  readonly log: Logger;
  /** The port the Host header must name (see requireLoopbackHost); absent with --allow-remote. */
  readonly loopbackPort?: () => number;
  /** After a logout: the caller mints and prints a new one-time link on the terminal. */
  readonly onLogout?: () => void;
}

// A Try it text may be 100,000 characters of 4 UTF-8 bytes each, form-encoded.
const BODY_LIMIT = 2 * 1024 * 1024;

const refuse: Refuse = (c, status, reason) =>
  status === 401
    ? plainPage(c, 401, "Log in", loginHelp(reason))
    : plainPage(c, status, "Request refused", notice("error", [reason]));

/** Builds the dashboard; listens on nothing (see start.ts). Tests call `app.request()`. */
export function createDashboardApp(options: DashboardAppOptions) {
  const { deps, sections, sessions, log } = options;
  const app = new Hono<InternalEnv>();
  const render = createRenderPage(sections);

  app.use(securityHeaders());
  app.use(requestLog(log));
  if (options.loopbackPort) app.use(requireLoopbackHost(options.loopbackPort, refuse));
  app.use(
    bodyLimit({
      maxSize: BODY_LIMIT,
      onError: (c) => plainPage(c, 413, "Too large", notice("error", ["That request is too large."])),
    }),
  );
  registerAssets(app as unknown as Hono);

  app.get("/login", (c) => {
    const token = c.req.query("token");
    if (token === undefined) {
      if (sessions.touch(getCookie(c, SESSION_COOKIE))) return c.redirect("/", 303);
      return plainPage(c, 401, "Log in", loginHelp());
    }
    const opened = sessions.login(token);
    if (!opened)
      return plainPage(c, 401, "Log in", loginHelp("That login link has been used already or is not valid."));
    setCookie(c, SESSION_COOKIE, opened.id, { httpOnly: true, sameSite: "Strict", path: "/" });
    // To the dashboard's own address: the token leaves the address bar and the history entry.
    return c.redirect("/", 303);
  });

  app.use(requireSession(sessions, refuse));
  app.use(requireCsrf(refuse));

  app.post("/logout", (c) => {
    sessions.logout(c.get("sessionId"));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    options.onLogout?.();
    return c.redirect("/login", 303);
  });
  app.get("/", (c) => c.redirect(sections[0]?.path ?? "/login", 303));

  const sectionApp = app as unknown as Hono<DashboardEnv>;
  for (const section of sections) section.register(sectionApp, deps, render);

  sectionApp.notFound((c) =>
    render(c, {
      title: "Not found",
      section: sections[0]?.id ?? "org",
      body: String(fragment`<p>There is no page at this address. Pick a section above.</p>`),
      status: 404,
    }),
  );
  app.onError((error, c) => {
    c.set("unexpected" as never, error as never);
    return plainPage(
      c,
      500,
      "Something went wrong",
      notice("error", ["The dashboard hit an internal error; the terminal's log says more."]),
    );
  });
  return app;
}

export type DashboardApp = ReturnType<typeof createDashboardApp>;
