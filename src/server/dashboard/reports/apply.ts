import { z } from "zod";
import { StaleEditError, saveProfileEdits } from "../../../config/profile-save.js";
import { ConfigError, UsageError } from "../../../errors.js";
import { GUARDRAIL_IDS, type GuardrailId } from "../../../guardrails/types.js";
import { listProfiles } from "../guardrails/profiles.js";
import type { DashboardDeps } from "../section.js";
import { APPLY_MAX_FPR } from "./pages.js";
import { type Figures, madeOn } from "./recommendations.js";

/** What the apply form posts (see reports/pages.ts). */
export type ApplyForm = Record<string, string | File | (string | File)[]>;

export type ApplyOutcome =
  | {
      readonly ok: true;
      readonly id: GuardrailId;
      readonly profile: string;
      readonly file: string;
      readonly threshold: number;
      readonly figures?: { before: Figures; after: Figures };
    }
  | { readonly ok: false; readonly status: 404 | 409 | 422; readonly message: string };

const ratio = z.number().nullable();
const figures = z.object({ threshold: ratio, precision: ratio, recall: ratio, fpr: ratio });
const figuresField = z.object({ before: figures, after: figures });

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const field = (form: ApplyForm, key: string) => (typeof form[key] === "string" ? (form[key] as string) : "");

/**
 * Writes a report's recommended threshold into the chosen profile, through the same in-place edit,
 * loader validation and atomic write as every dashboard save, after the checks `--write-profile`
 * makes: the profile is the one the report was made on (or the user says otherwise), and the
 * threshold does not run above 10% false positives on the report's data (or the user says so).
 */
export async function applyRecommendation(deps: DashboardDeps, form: ApplyForm): Promise<ApplyOutcome> {
  const id = field(form, "guardrail") as GuardrailId;
  const threshold = Number(field(form, "threshold"));
  if (!GUARDRAIL_IDS.includes(id) || field(form, "threshold") === "" || !Number.isFinite(threshold)) {
    return {
      ok: false,
      status: 422,
      message: "the form names no guardrail and threshold; open the report again",
    };
  }
  const name = field(form, "profile");
  const profiles = await listProfiles(deps.configDir);
  const profile = profiles.find((p) => p.name === name);
  if (!profile) return { ok: false, status: 404, message: `no profile "${name}" in ${deps.configDir}` };
  const sha256 = field(form, `sha256.${name}`);
  if (sha256 !== profile.sha256)
    return { ok: false, status: 409, message: new StaleEditError(profile.file).message };
  const report = {
    profile: field(form, "report_profile"),
    profile_file: field(form, "report_profile_file"),
    // Sent empty for a run on the bundled profiles (the summary's `config_dir: null`).
    config_dir: field(form, "report_config_dir") || null,
  };
  if (!madeOn(report, profile) && form.confirm_profile !== "on") {
    const message = `the report was made on profile ${report.profile} (file ${report.profile_file}), not on ${profile.name} (${profile.file}): its thresholds were measured on another profile. Tick "Apply even if…" to apply it anyway.`;
    return { ok: false, status: 422, message };
  }
  const parsed = figuresField.safeParse(json(field(form, "figures")));
  const fpr = parsed.success ? parsed.data.after.fpr : null;
  if (fpr !== null && fpr > APPLY_MAX_FPR && form.force !== "on") {
    const message = `${id} ${threshold} runs at ${(fpr * 100).toFixed(1)}% false positives on the report's data, above ${APPLY_MAX_FPR * 100}%; nothing was written. Tick "Apply although…" to apply it anyway.`;
    return { ok: false, status: 422, message };
  }
  const edits = [{ path: ["guardrails", id, "threshold"], value: threshold }];
  try {
    await saveProfileEdits(deps.configDir, deps.registry, [{ file: profile.file, sha256, edits }]);
  } catch (error) {
    if (error instanceof StaleEditError) return { ok: false, status: 409, message: error.message };
    if (error instanceof ConfigError) return { ok: false, status: 422, message: error.problems.join("\n") };
    if (error instanceof UsageError) return { ok: false, status: 422, message: error.message };
    throw error;
  }
  return {
    ok: true,
    id,
    profile: profile.name,
    file: profile.file,
    threshold,
    ...(parsed.success ? { figures: parsed.data } : {}),
  };
}
