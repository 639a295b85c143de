import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import type { DashboardEnv, RenderPage, Section } from "../../../src/dashboard/section.js";
import { builtinGuardrails } from "../../../src/guardrails/registry.js";

export const CSRF = "test-csrf-token";

/** The page shell reduced to what tests read: the title, the section and its body. */
const render: RenderPage = (c, page) =>
  c.html(
    `<!doctype html><title>${page.title}</title><main data-section="${page.section}">${page.body}</main>`,
    (page.status ?? 200) as 200,
  );

/**
 * A section mounted the way the dashboard mounts it, minus login: the session middleware's one
 * output, the CSRF token, is set for every request (the core's own tests cover the middleware).
 */
export function sectionApp(section: Section, configDir: string) {
  const app = new Hono<DashboardEnv>();
  app.use(async (c, next) => {
    c.set("csrfToken", CSRF);
    await next();
  });
  section.register(
    app,
    { configDir, registry: builtinGuardrails, now: () => new Date("2026-01-01T00:00:00Z") },
    render,
  );
  return app;
}

/** A private copy of `test/dashboard/fixtures/<name>`, removed by the returned cleanup. */
export async function copyConfig(name: string) {
  const dir = await mkdtemp(join(tmpdir(), `guardrail-dash-${name}-`));
  await cp(join(import.meta.dirname, "..", "fixtures", name), dir, { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A form post as a browser sends it. */
export function post(app: Hono<DashboardEnv>, path: string, fields: [string, string][]) {
  const body = new URLSearchParams([["csrf", CSRF], ...fields]);
  return app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
}

/** The hidden `sha256` field of a rendered profile form. */
export const formSha = (page: string) => /name="sha256" value="([0-9a-f]{64})"/.exec(page)?.[1] ?? "";
