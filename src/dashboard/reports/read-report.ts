import { z } from "zod";
import { formatIssues } from "../../config/issues.js";
import { GUARDRAIL_IDS } from "../../guardrails/types.js";

/** Uploads above this are refused before parsing: a summary is tens of kilobytes, a report a few hundred. */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;

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

const HOW = "upload the summary `guardrail batch … --json > summary.json` writes";

/**
 * Reads an uploaded `batch --json` summary. The HTML report is for people: it carries its figures
 * as rendered text only, with no machine-readable copy, so it is refused with what to upload
 * instead rather than scraped (a layout change would silently misread thresholds).
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
  if (start.startsWith("<!doctype html") || start.startsWith("<html")) {
    throw new ReportError(`${name}: an HTML report has no machine-readable figures; ${HOW}`, 422);
  }
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
