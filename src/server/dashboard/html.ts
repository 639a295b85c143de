import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export { raw };
export type Html = HtmlEscapedString;

/**
 * hono's `html` tag (every interpolation is escaped unless it is itself a fragment), narrowed to
 * the synchronous case: the dashboard never interpolates promises, and a page body is a string.
 */
export function fragment(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const out = html(strings, ...values);
  if (out instanceof Promise) throw new Error("a dashboard fragment interpolated a promise");
  return out;
}

/** Joins fragments (a list of rows, say) into one, keeping them unescaped. */
export const join = (parts: readonly Html[]): Html => raw(parts.join(""));

/** The hidden field every form that changes something carries (see csrf.ts). */
export const csrfField = (token: string): Html =>
  fragment`<input type="hidden" name="csrf" value="${token}">`;

/** A notice above a section's content: `role="status"` for news, `role="alert"` for refusals. */
export function notice(kind: "ok" | "error", lines: readonly string[]): Html {
  const role = kind === "error" ? "alert" : "status";
  const [first, ...rest] = lines;
  const more = rest.length ? fragment`<ul>${rest.map((line) => fragment`<li>${line}</li>`)}</ul>` : "";
  return fragment`<div class="notice ${kind}" role="${role}"><p>${first}</p>${more}</div>`;
}
