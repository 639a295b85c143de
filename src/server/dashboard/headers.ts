import type { MiddlewareHandler } from "hono";

/**
 * Nothing inline and nothing from elsewhere: scripts, styles and images come from the dashboard
 * itself (/assets/), forms post only to it, and no page may frame it (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  // Pages show keys and App IDs: none may linger in a cache or the back-forward history.
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** Outermost middleware: every response gets the headers, error pages and redirects included. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // A Response built by Response.redirect() or fetch() has immutable headers: copy it first.
    try {
      c.res.headers.set("X-Content-Type-Options", "nosniff");
    } catch {
      c.res = new Response(c.res.body, c.res);
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  };
}
