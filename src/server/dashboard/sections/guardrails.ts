import type { Context } from "hono";
import { StaleEditError, saveProfileEdits } from "../../../config/profile-save.js";
import { ConfigError, UsageError } from "../../../errors.js";
import type { GuardrailId } from "../../../guardrails/types.js";
import { withDefaultMarker } from "../guardrails/default-marker.js";
import { FieldErrors } from "../guardrails/field-errors.js";
import { editsBetween } from "../guardrails/form-edits.js";
import {
  type FormBody,
  type ProfileValues,
  valuesFromDocument,
  valuesFromForm,
} from "../guardrails/form-values.js";
import { h } from "../guardrails/markup.js";
import { modelThreshold, THRESHOLD_GUARDRAILS } from "../guardrails/model-thresholds.js";
import { profileForm, profileList, profileUrl } from "../guardrails/pages.js";
import { listProfiles, type ProfileEntry } from "../guardrails/profiles.js";
import { validateRegexRule } from "../guardrails/validate-regex.js";
import type { DashboardDeps, DashboardEnv, RenderPage, Section } from "../section.js";

type Ctx = Context<DashboardEnv>;

async function modelThresholds(profile: ProfileEntry) {
  const g = (profile.raw?.guardrails ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: Partial<Record<GuardrailId, number>> = {};
  for (const id of THRESHOLD_GUARDRAILS) {
    const t = await modelThreshold(id, g[id]);
    if (t !== undefined) out[id] = t;
  }
  return out;
}

interface Shown {
  readonly values?: ProfileValues;
  readonly isDefault?: boolean;
  readonly messages?: readonly string[];
  readonly notice?: string;
  readonly sha256?: string;
  readonly status?: number;
}

async function showProfile(c: Ctx, render: RenderPage, profile: ProfileEntry, shown: Shown = {}) {
  const body = profileForm({
    profile,
    csrf: c.get("csrfToken"),
    sha256: shown.sha256 ?? profile.sha256,
    values: shown.values ?? valuesFromDocument(profile.raw),
    isDefault: shown.isDefault ?? profile.isDefault,
    errors: new FieldErrors(profile.file, shown.messages ?? profile.problems),
    errorsOnDisk: shown.messages === undefined,
    modelThresholds: await modelThresholds(profile),
    ...(shown.notice === undefined ? {} : { notice: shown.notice }),
  });
  const title = `Profile ${profile.name}`;
  return render(c, { title, section: "guardrails", body: String(body), status: shown.status ?? 200 });
}

async function notFound(c: Ctx, render: RenderPage, name: string) {
  const body = h`<p>There is no profile of that name. <a href="/guardrails">All profiles</a></p>`;
  return render(c, { title: `No profile "${name}"`, section: "guardrails", body: String(body), status: 404 });
}

/** Saves the form: only the values that changed, validated as the loader would read them, or refused. */
async function save(c: Ctx, deps: DashboardDeps, render: RenderPage) {
  const name = c.req.param("name") ?? "";
  const body = (await c.req.parseBody({ all: true })) as FormBody;
  const sha256 = typeof body.sha256 === "string" ? body.sha256 : "";
  const profiles = await listProfiles(deps.configDir);
  const profile = profiles.find((p) => p.name === name);
  if (!profile) return notFound(c, render, name);
  // Compared before reading the form against the file: values are diffed against what was rendered.
  if (profile.sha256 !== sha256) {
    const stale = new StaleEditError(profile.file);
    return showProfile(c, render, profile, { messages: [stale.message], status: 409, sha256 });
  }
  const before = valuesFromDocument(profile.raw);
  const after = valuesFromForm(body, before);
  const makeDefault = body.default === "on";
  const changes = withDefaultMarker(profiles, profile, sha256, editsBetween(before, after), makeDefault);
  if (changes.every((change) => change.edits.length === 0)) {
    return showProfile(c, render, profile, { notice: "Nothing changed: the file was not written." });
  }
  const refused = { values: after, isDefault: makeDefault, sha256 };
  try {
    await saveProfileEdits(deps.configDir, deps.registry, changes);
  } catch (error) {
    if (error instanceof StaleEditError)
      return showProfile(c, render, profile, { ...refused, messages: [error.message], status: 409 });
    if (error instanceof ConfigError)
      return showProfile(c, render, profile, { ...refused, messages: error.problems, status: 422 });
    if (error instanceof UsageError)
      return showProfile(c, render, profile, { ...refused, messages: [error.message], status: 422 });
    throw error;
  }
  return c.redirect(`${profileUrl(name)}?saved=1`, 303);
}

/** Guardrails: every profile's guardrails on/off and their settings, saved in place into the YAML. */
export const guardrailsSection: Section = {
  id: "guardrails",
  label: "Guardrails",
  path: "/guardrails",
  register(app, deps, render) {
    app.get("/guardrails", async (c) => {
      const body = profileList(await listProfiles(deps.configDir, deps.registry));
      return render(c, { title: "Guardrails", section: "guardrails", body: String(body) });
    });
    // Before `/:name`, which would take "validate-regex" for a profile's name.
    app.post("/guardrails/validate-regex", async (c) => {
      const input = await c.req.json().catch(() => undefined);
      return c.json(validateRegexRule(input));
    });
    app.get("/guardrails/:name", async (c) => {
      const name = c.req.param("name");
      const profile = (await listProfiles(deps.configDir, deps.registry)).find((p) => p.name === name);
      if (!profile) return notFound(c, render, name);
      const saved = c.req.query("saved") === "1";
      return showProfile(c, render, profile, saved ? { notice: "Saved." } : {});
    });
    app.post("/guardrails/:name", (c) => save(c, deps, render));
  },
};
