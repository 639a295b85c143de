import type { Context } from "hono";
import { csrfField, fragment, type Html, raw } from "./html.js";
import type { DashboardEnv, RenderPage, Section } from "./section.js";

/** The document around every page: the one stylesheet and the shell's script, from /assets/. */
function documentOf(title: string, header: Html | string, main: Html | string): string {
  return String(fragment`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · guardrail dashboard</title>
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${main}
</main>
</body>
</html>
`);
}

/** The shell with the nav: sections in the order given, the current one marked for screen readers too. */
export function createRenderPage(sections: readonly Section[]): RenderPage {
  return (c: Context<DashboardEnv>, page) => {
    const links = sections.map(
      (s) =>
        fragment`<li><a href="${s.path}"${s.id === page.section ? raw(' aria-current="page"') : ""}>${s.label}</a></li>`,
    );
    const header = fragment`<header class="top">
<span class="brand">guardrail</span>
<nav aria-label="Sections"><ul>${links}</ul></nav>
<form method="post" action="/logout" class="logout">${csrfField(c.get("csrfToken"))}<button type="submit">Log out</button></form>
</header>`;
    return c.html(documentOf(page.title, header, raw(page.body)), (page.status ?? 200) as 200);
  };
}

/** A page outside the session (login, refusals before the session is known): no nav, no forms. */
export function plainPage(c: Context, status: number, title: string, body: Html): Response {
  const header = fragment`<header class="top"><span class="brand">guardrail</span></header>`;
  return c.html(documentOf(title, header, body), status as 200);
}

/** What an unauthenticated visitor sees: where the way in is. */
export const loginHelp = (problem?: string): Html => fragment`${
  problem ? fragment`<div class="notice error" role="alert"><p>${problem}</p></div>` : ""
}<p>This dashboard opens only with the one-time login link that <code>guardrail dashboard</code>
printed in its terminal. Open that link in this browser.</p>
<p>A link works once. Logging out prints a new one in the terminal; otherwise restart the dashboard
for a new one.</p>`;
