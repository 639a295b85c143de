import type { KeyRecord } from "../../../config/keys.js";
import { csrfField, fragment, type Html, notice } from "../html.js";
import type { Flash } from "../sessions.js";
import { shortTime } from "./shared.js";

/** The plain key, this once, with a copy button; the page never has it again. */
function newKey(key: NonNullable<Flash["key"]>): Html {
  return fragment`<section class="notice ok" aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new key ${key.id}</h2>
<p>Copy it now and store it in your secret manager. It is shown this once: only its SHA-256 is
kept, so it cannot be shown again or recovered.</p>
<div class="secret"><code id="new-key">${key.plain}</code>
<button type="button" data-copy="new-key" data-status="copy-status">Copy key</button>
<span id="copy-status" role="status" aria-live="polite"></span></div>
</section>`;
}

function keyRow(key: KeyRecord, csrf: string): Html {
  const status = key.revoked
    ? fragment`<span class="status-revoked">revoked ${shortTime(key.revoked)}</span>`
    : fragment`<span class="status-active">active</span>`;
  const actions = key.revoked
    ? ""
    : fragment`<div class="actions">
<form method="post" action="/org/keys/revoke" class="inline">${csrfField(csrf)}<input type="hidden" name="id" value="${key.id}">
<button type="submit" class="danger" aria-label="Revoke ${key.id}">Revoke</button></form>
<form method="post" action="/org/keys" class="inline">${csrfField(csrf)}<input type="hidden" name="replace" value="${key.id}">
<input type="hidden" name="label" value="${key.label}">
<button type="submit" aria-label="Replace (lost key) ${key.id}: a new key, this one revoked">Replace (lost key)</button></form>
</div>`;
  // Enough of the hash to tell keys apart in a list; never the key, never the whole hash.
  return fragment`<tr><td><code>${key.id}</code></td><td>${key.label || fragment`<span class="muted">none</span>`}</td>
<td>${shortTime(key.created)}</td><td>${status}</td><td><code title="shown only once, at creation">grk_••••••••</code>
<span class="hint">sha256 ${key.sha256.slice(0, 8)}…</span></td><td>${actions}</td></tr>`;
}

export interface OrgView {
  readonly csrf: string;
  readonly keys?: readonly KeyRecord[];
  readonly flash?: Flash;
  readonly problems?: Html;
}

export function orgBody(view: OrgView): string {
  const { csrf, keys = [], flash } = view;
  const rows = keys.map((key) => keyRow(key, csrf));
  const table = keys.length
    ? fragment`<table><caption class="hint">Keys are never shown after creation; only their SHA-256 is stored.</caption>
<thead><tr><th scope="col">ID</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Key</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : fragment`<p>No keys yet: every API request gets 401 until you create one.</p>`;
  return String(fragment`${view.problems ?? ""}${flash ? notice(flash.kind, flash.lines) : ""}${flash?.key ? newKey(flash.key) : ""}
<h2>API keys</h2>
<p class="hint">One organisation-wide key authenticates <code>input-check</code> and <code>output-check</code>
(header <code>X-API-Key</code>). Rotate by creating a new key while the old one stays active, then revoke the old one.</p>
${table}
<h2>Create a key</h2>
<form method="post" action="/org/keys">${csrfField(csrf)}
<div class="field"><label for="key-label">Label <span class="hint">(optional; e.g. production)</span></label>
<input type="text" id="key-label" name="label" maxlength="200" autocomplete="off"></div>
<button type="submit" class="primary">Create key</button></form>`);
}
