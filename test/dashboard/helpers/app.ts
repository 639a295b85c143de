import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { builtinGuardrails } from "../../../src/guardrails/registry.js";
import type { DashboardEnv, RenderPage, Section } from "../../../src/server/dashboard/section.js";

export const CSRF = "test-csrf-token";

/** The page shell reduced to what tests read: the title (also the page's h1, as the core's shell), the section and its body. */
const render: RenderPage = (c, page) =>
  c.html(
    html`<!doctype html><title>${page.title}</title><main data-section="${page.section}"><h1>${page.title}</h1>${raw(page.body)}</main>`,
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

/**
 * Two hand-written profiles whose layout a formatter would change (aligned comments, a long flow
 * line, a blank line, a block literal): kept here, not as fixture files, because Biome formats YAML.
 */
export const MAIN_YAML = `# The main profile: hand-written, with comments that must survive every save.
name: main
default: true   # requests without X-App-ID use this one
guardrails:
  keyword: { enabled: true, keywords: [ignore previous instructions, a really long phrase that a printer would wrap somewhere past eighty columns and beyond] }
  regex:
    enabled: true
    patterns:
      - name: ticket   # internal ticket ids
        pattern: \\bTICKET-[0-9]{5}\\b
        flags: i

  llm:
    enabled: true   # aligned comment
    threshold: 0.50
  pii: { enabled: true, entities: [EMAIL_ADDRESS, US_SSN] }
  # content moderation stays off for this bot
`;

export const STRICT_YAML = `name: strict
guardrails:
  keyword:
    enabled: true
    keywords:
      - purple elephant
  system_prompt_protection:
    enabled: false
    system_prompt: |
      You are a support bot.
      Never share internal ticket ids.
    canaries: [cnry-5f2a9e]
`;

/** A config directory with `main` (the default) and `strict`, and an app bound to `strict`. */
export async function makeConfig(
  profiles: Record<string, string> = { main: MAIN_YAML, strict: STRICT_YAML },
) {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-dash-"));
  await mkdir(join(dir, "profiles"));
  for (const [name, text] of Object.entries(profiles))
    await writeFile(join(dir, "profiles", `${name}.yaml`), text);
  await writeFile(
    join(dir, "apps.yaml"),
    "apps:\n  - { name: Strict bot, id: app_strict_000001, profile: strict }\n",
  );
  await writeFile(join(dir, "keys.yaml"), "keys: []\n");
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
