import type { Hono } from "hono";
import { GUARDRAILS_JS } from "./assets/guardrails-script.js";
import { DASHBOARD_JS } from "./assets/script.js";
import { SECTIONS_CSS } from "./assets/sections-styles.js";
import { DASHBOARD_CSS } from "./assets/styles.js";

/**
 * The stylesheet and the script, served from memory: they are TypeScript modules, so the build
 * (tsc, which copies no other files) ships them in dist/ with everything else. Reachable without
 * a session: the login page needs them, and they hold nothing secret. One stylesheet for every
 * page (the shell's rules, then the Guardrails and Reports forms'); the Guardrails pages add
 * their own script (the live regex check).
 */
const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  "/assets/dashboard.css": { type: "text/css; charset=utf-8", body: `${DASHBOARD_CSS}\n${SECTIONS_CSS}` },
  "/assets/dashboard.js": { type: "text/javascript; charset=utf-8", body: DASHBOARD_JS },
  "/assets/guardrails.js": { type: "text/javascript; charset=utf-8", body: GUARDRAILS_JS },
};

export function registerAssets(app: Hono) {
  for (const [path, { type, body }] of Object.entries(ASSETS))
    app.get(path, (c) => c.body(body, 200, { "Content-Type": type }));
}
