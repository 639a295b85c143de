import { GUARDRAIL_IDS, type GuardrailId } from "../../guardrails/types.js";
import type { BatchSummary, GuardrailSummary } from "../summary.js";
import { esc } from "./html.js";

/** The `<meta name>` under which the report carries its machine-readable part. */
export const EMBEDDED_SUMMARY = "guardrail-batch-summary";

type Embedded = Pick<
  BatchSummary,
  | "version"
  | "file"
  | "mode"
  | "profile"
  | "profile_file"
  | "config_dir"
  | "rows"
  | "labelled"
  | "interrupted"
> & {
  guardrails: Partial<
    Record<
      GuardrailId,
      Pick<GuardrailSummary, "threshold" | "threshold_source" | "standalone" | "recommendation">
    >
  >;
};

/**
 * The part of the summary the dashboard's Reports section reads (which profile, each guardrail's
 * threshold, its figures and the recommendation), with the summary's own field names, so the HTML
 * report can be opened there as the `--json` summary is. A `<meta>` and not a
 * `<script type="application/json">`: the report stays free of script elements, and the
 * attribute is escaped like any other text. A few kilobytes: no curves, no example texts.
 */
export function embeddedSummary(s: BatchSummary): string {
  const guardrails: Embedded["guardrails"] = {};
  for (const id of GUARDRAIL_IDS) {
    const g = s.guardrails[id];
    if (!g) continue;
    guardrails[id] = {
      threshold: g.threshold,
      threshold_source: g.threshold_source,
      standalone: g.standalone,
      ...(g.recommendation ? { recommendation: g.recommendation } : {}),
    };
  }
  const data: Embedded = {
    version: s.version,
    file: s.file,
    mode: s.mode,
    profile: s.profile,
    profile_file: s.profile_file,
    config_dir: s.config_dir,
    rows: s.rows,
    labelled: s.labelled,
    interrupted: s.interrupted,
    guardrails,
  };
  return `<meta name="${EMBEDDED_SUMMARY}" content="${esc(JSON.stringify(data))}">`;
}
