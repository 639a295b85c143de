import type { Hono } from "hono";
import { GUARDRAILS_JS } from "../assets/guardrails-script.js";
import { SECTIONS_CSS } from "../assets/sections-styles.js";
import type { DashboardEnv } from "../section.js";

/**
 * Each of the two sections serves its own stylesheet (and Guardrails its script) under its own
 * prefix, from memory, so it needs nothing from the core's asset list and works mounted alone.
 */
export const sectionAssets = (prefix: "/guardrails" | "/reports") => ({
  css: `${prefix}/assets/sections.css`,
  js: `${prefix}/assets/guardrails.js`,
});

export function registerSectionAssets(app: Hono<DashboardEnv>, prefix: "/guardrails" | "/reports") {
  const paths = sectionAssets(prefix);
  app.get(paths.css, (c) => c.body(SECTIONS_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }));
  if (prefix === "/guardrails")
    app.get(paths.js, (c) =>
      c.body(GUARDRAILS_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
    );
}
