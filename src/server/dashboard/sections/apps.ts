import type { Context } from "hono";
import { maskAppId } from "../../../config/apps.js";
import { bindApp, createApp, deleteApp } from "../../../config/store.js";
import type { DashboardDeps, DashboardEnv, RenderPage, Section } from "../section.js";
import { appsBody } from "./apps-view.js";
import { configProblems, field, leaveFlash, readConfig, refusalLines, takeFlash } from "./shared.js";

async function page(c: Context<DashboardEnv>, deps: DashboardDeps, render: RenderPage, refused?: string[]) {
  const { config, problems } = await readConfig(deps);
  const flash = refused ? { kind: "error" as const, lines: refused } : takeFlash(c);
  const body = appsBody({
    csrf: c.get("csrfToken"),
    ...(config ? { apps: [...config.apps.values()], profiles: [...config.profiles.keys()] } : {}),
    ...(flash ? { flash } : {}),
    ...(problems ? { problems: configProblems(problems) } : {}),
  });
  return render(c, { title: "Apps", section: "apps", body, ...(refused ? { status: 409 } : {}) });
}

const GONE =
  "it no longer exists: it was deleted outside the dashboard (by the CLI or in apps.yaml) after this page loaded. Nothing was changed.";

/**
 * What the page showed must still hold when the change is made: the app is still there and,
 * for a rebind, still bound where the page said. Otherwise someone else changed it meanwhile.
 */
async function stale(deps: DashboardDeps, id: string, from?: string): Promise<string | undefined> {
  const { config } = await readConfig(deps);
  const app = config?.apps.get(id);
  if (!config) return undefined; // the store refuses a broken config with the problems
  if (!app) return `App ${maskAppId(id)} was not changed: ${GONE}`;
  if (from !== undefined && app.profile !== from)
    return `App "${app.name}" was not rebound: its profile changed outside the dashboard (the page showed ${from}, it is now ${app.profile}). Nothing was changed; check the list below and try again.`;
  return undefined;
}

/** Apps: name, masked App ID, bound profile; the same store as `guardrail apps`. */
export const appsSection: Section = {
  id: "apps",
  label: "Apps",
  path: "/apps",
  register(app, deps, render) {
    const store = { registry: deps.registry, now: deps.now };
    const attempt = async (c: Context<DashboardEnv>, change: () => Promise<string>) => {
      try {
        leaveFlash(c, { kind: "ok", lines: [await change()] });
        return c.redirect("/apps", 303);
      } catch (error) {
        return page(c, deps, render, refusalLines(error));
      }
    };
    app.get("/apps", (c) => page(c, deps, render));

    app.post("/apps", async (c) => {
      const name = (await field(c, "name")).slice(0, 200);
      const profile = await field(c, "profile");
      if (!name) return page(c, deps, render, ["An app needs a name; nothing was created."]);
      return attempt(c, async () => {
        const created = await createApp(deps.configDir, { name, profile }, store);
        return `Created app "${created.name}" bound to profile ${created.profile}; reveal its App ID below.`;
      });
    });

    app.post("/apps/bind", async (c) => {
      const [id, from, profile] = await Promise.all(["id", "from", "profile"].map((n) => field(c, n)));
      const refused = await stale(deps, id ?? "", from);
      if (refused) return page(c, deps, render, [refused]);
      return attempt(c, async () => {
        const { app: bound, previous } = await bindApp(deps.configDir, id ?? "", profile ?? "", store);
        return `Bound app "${bound.name}" to profile ${bound.profile} (was ${previous}).`;
      });
    });

    app.post("/apps/delete", async (c) => {
      const id = await field(c, "id");
      const refused = await stale(deps, id);
      if (refused) return page(c, deps, render, [refused]);
      return attempt(c, async () => {
        const deleted = await deleteApp(deps.configDir, id, store);
        return `Deleted app "${deleted.name}": requests with its App ID now get 404.`;
      });
    });
  },
};
