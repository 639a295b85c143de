import { GUARDRAIL_IDS, type GuardrailId } from "../../../guardrails/types.js";
import type { ReportSummary } from "./read-report.js";

/** Precision, recall and FPR of one guardrail on its own at one threshold. */
export interface Figures {
  readonly threshold: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly fpr: number | null;
}

/** One guardrail's recommendation, with its figures at the threshold the run applied and at the new one. */
export interface RecommendationRow {
  readonly id: GuardrailId;
  readonly target: string;
  readonly reason: string;
  readonly source: "profile" | "model" | null;
  readonly before: Figures;
  /** null when no threshold met the target. */
  readonly after: Figures | null;
}

/**
 * The recommendations of a summary made with `--target-fpr` or `--target-recall`. "Before" is the
 * guardrail's standalone figures (its own verdicts at the threshold it applied, the run's exact
 * counts); "after" is the sweep point the recommendation chose.
 */
export function recommendationRows(summary: ReportSummary): RecommendationRow[] {
  const rows: RecommendationRow[] = [];
  for (const id of GUARDRAIL_IDS) {
    const g = summary.guardrails[id];
    const rec = g?.recommendation;
    if (!g || !rec) continue;
    const alone = g.standalone;
    rows.push({
      id,
      target: `${rec.target.metric} ${rec.target.metric === "fpr" ? "≤" : "≥"} ${rec.target.value}`,
      reason: rec.reason,
      source: g.threshold_source,
      before: {
        threshold: g.threshold,
        precision: alone?.precision ?? null,
        recall: alone?.recall ?? null,
        fpr: alone?.fpr ?? null,
      },
      after:
        rec.threshold === null || rec.at === null
          ? null
          : { threshold: rec.threshold, precision: rec.at.precision, recall: rec.at.recall, fpr: rec.at.fpr },
    });
  }
  return rows;
}

/**
 * Whether the report was made on this profile file: batch records the file relative to its working
 * directory when inside it, so a relative path matches the end of the file's absolute path. A run
 * on the bundled profiles (no config directory) was made on none of a config directory's files,
 * whatever their names.
 */
export function madeOn(
  summary: Pick<ReportSummary, "profile" | "profile_file" | "config_dir">,
  profile: { name: string; file: string },
) {
  if (summary.profile !== profile.name || summary.config_dir === null) return false;
  const recorded = summary.profile_file.replaceAll("\\", "/");
  const file = profile.file.replaceAll("\\", "/");
  return recorded.startsWith("/") ? recorded === file : file.endsWith(`/${recorded.replace(/^\.\//, "")}`);
}
