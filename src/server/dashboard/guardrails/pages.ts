import { GUARDRAIL_IDS, type GuardrailId } from "../../../guardrails/types.js";
import type { FieldErrors } from "./field-errors.js";
import { guardrailFieldset } from "./fieldsets.js";
import type { ProfileValues } from "./form-values.js";
import { errorList, h, type Markup } from "./markup.js";
import type { ProfileEntry } from "./profiles.js";

export const profileUrl = (name: string) => `/guardrails/${encodeURIComponent(name)}`;

const enabledIds = (p: ProfileEntry) => {
  const g = (p.raw?.guardrails ?? {}) as Record<string, { enabled?: unknown } | null>;
  return GUARDRAIL_IDS.filter((id) => g[id]?.enabled === true);
};

/** The profiles of the config directory, the default marked. */
export function profileList(profiles: readonly ProfileEntry[]): Markup {
  if (profiles.length === 0) return h`<p>No profiles yet: <code>guardrail init</code> creates one.</p>`;
  return h`<table id="profiles"><caption>Security profiles</caption>
<thead><tr><th scope="col">Profile</th><th scope="col">Default</th><th scope="col">Guardrails on</th><th scope="col">File</th></tr></thead>
<tbody>${profiles.map(
    (p) => h`<tr><th scope="row"><a href="${profileUrl(p.name)}">${p.name}</a></th>
<td>${p.isDefault ? h`<span class="badge">default</span>` : ""}</td>
<td>${enabledIds(p).join(", ") || "none"}${p.problems.length > 0 ? h` <span class="warn">(does not load)</span>` : ""}</td>
<td><code>${p.file}</code></td></tr>`,
  )}</tbody></table>`;
}

export interface ProfilePageModel {
  readonly profile: ProfileEntry;
  readonly csrf: string;
  /** The hash of the file the form was rendered from (a save compares it). */
  readonly sha256: string;
  readonly values: ProfileValues;
  readonly isDefault: boolean;
  readonly errors: FieldErrors;
  readonly modelThresholds: Readonly<Partial<Record<GuardrailId, number>>>;
  /** "Saved." after a save, or why nothing was saved. */
  readonly notice?: string;
  /** True when the errors are the file's own as it is on disk, not a refused save's. */
  readonly errorsOnDisk?: boolean;
}

/** One profile's form: every guardrail's fieldset, the default marker, and Save. */
export function profileForm(m: ProfilePageModel): Markup {
  const ctx = { values: m.values, errors: m.errors, modelThresholds: m.modelThresholds };
  const summary =
    m.errors.all.length > 0
      ? h`<div class="notice error" id="form-errors" role="alert" tabindex="-1"><h2>${m.errorsOnDisk ? "This file does not load as it is" : "Nothing was saved"}</h2>${errorList("form", m.errors.all)}</div>`
      : "";
  return h`<p><a href="/guardrails">All profiles</a></p>
<p class="muted">File <code>${m.profile.file}</code></p>
${m.notice ? h`<div class="notice ok" id="save-status" role="status"><p>${m.notice}</p></div>` : ""}${summary}
<form id="profile-form" method="post" action="${profileUrl(m.profile.name)}" data-csrf="${m.csrf}" data-validate-regex="/guardrails/validate-regex">
<input type="hidden" name="csrf" value="${m.csrf}">
<input type="hidden" name="sha256" value="${m.sha256}">
<div class="field"><label class="check"><input type="checkbox" id="profile-default" name="default"${m.isDefault ? h` checked` : ""} aria-describedby="profile-default-help"> Default profile</label>
<p class="help" id="profile-default-help">Used for requests without an X-App-ID. At most one profile is the default: ticking it here clears it on the other.</p></div>
${GUARDRAIL_IDS.map((id) => guardrailFieldset(id, ctx))}
<button type="submit" class="primary" id="save">Save</button>
</form>
<script src="/assets/guardrails.js" defer></script>`;
}
