import { fragment, type Html } from "../html.js";

export type Markup = Html;

/** The dashboard's `fragment` (hono's `html`: every interpolation escaped), under a short name. */
export const h = fragment;

/** Error messages under an input, tied to it by id (`aria-describedby`) and announced. */
export function errorList(id: string, messages: readonly string[]): Markup | "" {
  if (messages.length === 0) return "";
  // The alert is a wrapper: role="alert" on the <ul> itself would take away its list role.
  return h`<div class="field-error" id="${id}-error" role="alert"><ul>${messages.map((m) => h`<li>${m}</li>`)}</ul></div>`;
}

/** The `aria-describedby` value for an input with an optional help text and error list. */
export function describedBy(id: string, help: boolean, errors: readonly string[]): string | undefined {
  const ids = [help ? `${id}-help` : "", errors.length > 0 ? `${id}-error` : ""].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}
