import { z } from "zod";
import { formatIssues } from "../../../config/issues.js";
import { EMBEDDED_SUMMARY } from "../../../eval/report/embedded-summary.js";
import { GUARDRAIL_IDS } from "../../../guardrails/types.js";

/**
 * Uploads above this are refused before parsing: a summary is tens of kilobytes, a report a few
 * hundred. Under the dashboard's 2 MiB limit on any request, so this message, which says what to
 * upload, is the one a person sees.
 */
export const MAX_REPORT_BYTES = 1.5 * 1024 * 1024;

const ratio = z.number().nullable();
const point = z.looseObject({ threshold: z.number(), precision: ratio, recall: ratio, fpr: ratio });

/** The part of `batch --json`'s summary (src/eval/summary.ts) the Reports section reads. */
const guardrailSchema = z.looseObject({
  threshold: z.number().nullable(),
  threshold_source: z.enum(["profile", "model"]).nullable(),
  standalone: z.looseObject({ precision: ratio, recall: ratio, fpr: ratio }).nullable(),
  recommendation: z
    .looseObject({
      target: z.object({ metric: z.enum(["fpr", "recall"]), value: z.number() }),
      threshold: z.number().nullable(),
      at: point.nullable(),
      reason: z.string(),
    })
    .optional(),
});

const summarySchema = z.looseObject({
  version: z.literal(1),
  file: z.string(),
  mode: z.enum(["input", "output"]),
  profile: z.string(),
  profile_file: z.string(),
  config_dir: z.string().nullable().optional(),
  rows: z.number(),
  labelled: z.number(),
  interrupted: z.boolean().optional(),
  guardrails: z.partialRecord(z.enum(GUARDRAIL_IDS), guardrailSchema),
});

export type ReportSummary = z.infer<typeof summarySchema>;
export type ReportGuardrail = z.infer<typeof guardrailSchema>;

/** A report the section cannot read: the message says what was expected instead. */
export class ReportError extends Error {
  constructor(
    message: string,
    readonly status: 413 | 422,
  ) {
    super(message);
  }
}

const HOW = "upload the HTML report `guardrail batch --report` writes, or the summary `--json` prints";

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/** The summary an HTML report carries in its `<meta name="guardrail-batch-summary">` (see embedded-summary.ts). */
function fromHtml(name: string, text: string): string {
  const found = new RegExp(`<meta name="${EMBEDDED_SUMMARY}" content="([^"]*)">`).exec(text);
  if (!found) {
    throw new ReportError(
      `${name}: this HTML page carries no batch figures (a report from before they were embedded, or not a guardrail report); ${HOW}`,
      422,
    );
  }
  return (found[1] ?? "").replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

/**
 * Reads an uploaded batch report: the HTML report (its embedded summary, not its rendered tables,
 * which a layout change would silently misread) or the `--json` summary. Either way the same
 * schema checks it.
 */
export function readReport(name: string, bytes: Uint8Array): ReportSummary {
  if (bytes.byteLength > MAX_REPORT_BYTES) {
    throw new ReportError(
      `${name}: ${bytes.byteLength} bytes, over the ${MAX_REPORT_BYTES / 1024 / 1024} MiB limit; ${HOW}`,
      413,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ReportError(`${name}: not UTF-8 text; ${HOW}`, 422);
  }
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (start.startsWith("<!doctype html") || start.startsWith("<html")) text = fromHtml(name, text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ReportError(`${name}: not JSON (${(error as Error).message}); ${HOW}`, 422);
  }
  const parsed = summarySchema.safeParse(json);
  if (!parsed.success) {
    const problems = formatIssues(name, parsed.error.issues).slice(0, 5);
    throw new ReportError(`not a guardrail batch summary: ${problems.join("; ")}`, 422);
  }
  return parsed.data;
}
