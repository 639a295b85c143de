import { type AppRecord, maskAppId } from "../../../config/apps.js";
import { csrfField, fragment, type Html, notice } from "../html.js";
import type { Flash } from "../sessions.js";
import { shortTime } from "./shared.js";

const profileOptions = (profiles: readonly string[], selected?: string) =>
  profiles.map(
    (name) =>
      fragment`<option value="${name}"${name === selected ? fragment` selected` : ""}>${name}</option>`,
  );

function appRow(app: AppRecord, index: number, profiles: readonly string[], csrf: string): Html {
  const masked = maskAppId(app.id);
  const idCell = `app-id-${index}`;
  // The full ID is in the page (App IDs are identifiers, not secrets: `apps list --reveal` shows
  // them too); the script swaps it in on request, so revealing needs no page load.
  return fragment`<tr><th scope="row">${app.name}</th>
<td><code id="${idCell}" data-masked="${masked}" data-full="${app.id}">${masked}</code>
<button type="button" data-reveal="${idCell}" data-what="App ID of ${app.name}" aria-label="Reveal App ID of ${app.name}">Reveal</button></td>
<td><form method="post" action="/apps/bind" class="inline">${csrfField(csrf)}
<input type="hidden" name="id" value="${app.id}"><input type="hidden" name="from" value="${app.profile}">
<label class="hint" for="bind-${index}">Profile</label>
<select id="bind-${index}" name="profile">${profileOptions(profiles, app.profile)}</select>
<button type="submit" aria-label="Rebind ${app.name}">Rebind</button></form></td>
<td>${app.created ? shortTime(app.created) : ""}</td>
<td><form method="post" action="/apps/delete" class="inline">${csrfField(csrf)}
<input type="hidden" name="id" value="${app.id}">
<button type="submit" class="danger" aria-label="Delete ${app.name}">Delete</button></form></td></tr>`;
}

export interface AppsView {
  readonly csrf: string;
  readonly apps?: readonly AppRecord[];
  readonly profiles?: readonly string[];
  readonly flash?: Flash;
  readonly problems?: Html;
}

export function appsBody(view: AppsView): string {
  const { csrf, apps = [], profiles = [], flash } = view;
  const table = apps.length
    ? fragment`<table><thead><tr><th scope="col">Name</th><th scope="col">App ID</th><th scope="col">Security profile</th>
<th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
<tbody>${apps.map((app, i) => appRow(app, i, profiles, csrf))}</tbody></table>`
    : fragment`<p>No apps yet: requests without <code>X-App-ID</code> use the default profile.</p>`;
  return String(fragment`${view.problems ?? ""}${flash ? notice(flash.kind, flash.lines) : ""}
<h2>All apps</h2>
<p class="hint">An app sends its App ID in <code>X-App-ID</code>; its requests are checked with the profile it is bound to.</p>
${table}
<h2>Create an app</h2>
<form method="post" action="/apps">${csrfField(csrf)}
<div class="field"><label for="app-name">Name</label>
<input type="text" id="app-name" name="name" required maxlength="200" autocomplete="off"></div>
<div class="field"><label for="app-profile">Security profile</label>
<select id="app-profile" name="profile" required>${profileOptions(profiles)}</select></div>
<button type="submit" class="primary">Create app</button></form>`);
}
