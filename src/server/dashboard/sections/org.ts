import type { Context } from "hono";
import { createKey, revokeKey } from "../../../config/store.js";
import type { DashboardDeps, DashboardEnv, RenderPage, Section } from "../section.js";
import { orgBody } from "./org-view.js";
import { configProblems, field, leaveFlash, readConfig, refusalLines, takeFlash } from "./shared.js";

const MAX_LABEL = 200;

async function page(c: Context<DashboardEnv>, deps: DashboardDeps, render: RenderPage, refused?: string[]) {
  const { config, problems } = await readConfig(deps);
  const flash = refused ? { kind: "error" as const, lines: refused } : takeFlash(c);
  const body = orgBody({
    csrf: c.get("csrfToken"),
    ...(config ? { keys: config.keys } : {}),
    ...(flash ? { flash } : {}),
    ...(problems ? { problems: configProblems(problems) } : {}),
  });
  return render(c, { title: "Org Settings", section: "org", body, ...(refused ? { status: 409 } : {}) });
}

/** Org Settings: the organisation's API keys, through the same store as `guardrail keys`. */
export const orgSection: Section = {
  id: "org",
  label: "Org Settings",
  path: "/org",
  register(app, deps, render) {
    const store = { registry: deps.registry, now: deps.now };
    app.get("/org", (c) => page(c, deps, render));

    // Create, or with `replace` the lost-key case: new key and the old one revoked in one write.
    app.post("/org/keys", async (c) => {
      const label = (await field(c, "label")).slice(0, MAX_LABEL);
      const replace = (await field(c, "replace")) || undefined;
      try {
        const { key, record, replaced } = await createKey(
          deps.configDir,
          { label, ...(replace ? { replace } : {}) },
          store,
        );
        const lines = [`Created key ${record.id}${label ? ` (${label})` : ""}.`];
        if (replaced) lines.push(`Revoked ${replaced.id}: requests using it now get 401.`);
        // Shown by the next GET and then forgotten: a reload shows the list alone.
        leaveFlash(c, { kind: "ok", lines, key: { id: record.id, plain: key } });
        return c.redirect("/org", 303);
      } catch (error) {
        const lines = refusalLines(error);
        if (replace) lines.unshift(`Key ${replace} was not replaced; nothing was changed.`);
        return page(c, deps, render, lines);
      }
    });

    app.post("/org/keys/revoke", async (c) => {
      const id = await field(c, "id");
      try {
        const { record, alreadyRevoked, activeLeft } = await revokeKey(deps.configDir, id, store);
        const lines = alreadyRevoked
          ? [`Key ${record.id} was already revoked (${record.revoked}), outside this page; nothing changed.`]
          : [`Revoked key ${record.id}: requests using it now get 401.`];
        if (activeLeft === 0) lines.push("No active key is left: every API request now gets 401.");
        leaveFlash(c, { kind: alreadyRevoked || activeLeft === 0 ? "error" : "ok", lines });
        return c.redirect("/org", 303);
      } catch (error) {
        return page(c, deps, render, [
          `Key ${id} was not revoked; nothing was changed.`,
          ...refusalLines(error),
        ]);
      }
    });
  },
};
