import { fragment, type Html } from "../html.js";

export type Markup = Html;

/** The dashboard's `fragment` (hono's `html`: every interpolation escaped), under a short name. */
export const h = fragment;

/** Error messages under an input, tied to it by id (`aria-describedby`) and announced. */
export function errorList(id: string, messages: readonly string[]): Markup | "" {
  if (messages.length === 0) return "";
  return h`<ul class="field-error" id="${id}-error" role="alert">${messages.map((m) => h`<li>${m}</li>`)}</ul>`;
}

/** The `aria-describedby` value for an input with an optional help text and error list. */
export function describedBy(id: string, help: boolean, errors: readonly string[]): string | undefined {
  const ids = [help ? `${id}-help` : "", errors.length > 0 ? `${id}-error` : ""].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** The sections' own stylesheet (see sections/sections-assets.ts; the CSP allows 'self' only). */
export const stylesheet = (prefix: "/guardrails" | "/reports"): Markup =>
  h`<link rel="stylesheet" href="${prefix}/assets/sections.css">`;
