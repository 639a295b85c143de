import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UsageError } from "../errors.js";
import type { BatchSummary } from "./summary.js";

const ratio = z.number().nullable().optional();

/** Only what a comparison reads: a saved `--json` summary from this or a later version. */
const baselineSchema = z.object({
  version: z.number().int().optional(),
  interrupted: z.boolean().optional(),
  // What the baseline ran on; absent from summaries saved before they were recorded.
  file: z.string().optional(),
  data_sha256: z.string().optional(),
  profile: z.string().optional(),
  profile_file: z.string().optional(),
  metrics: z.record(z.string(), ratio).nullable(),
  guardrails: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

export type Baseline = Pick<BatchSummary, "metrics" | "guardrails"> &
  Partial<Pick<BatchSummary, "file" | "data_sha256" | "profile" | "profile_file">>;

const short = (sha: string) => `${sha.slice(0, 12)}…`;

/**
 * How the baseline's run differs from this one in what it ran on: another data set or another
 * profile makes "got worse" meaningless, and the gates alone would not say so.
 */
export function baselineWarnings(baseline: Baseline, run: BatchSummary): string[] {
  const warnings: string[] = [];
  if (baseline.data_sha256 === undefined) {
    warnings.push(
      "the baseline does not record its data set's SHA-256 (saved by an older version): it may have run on other data",
    );
  } else if (baseline.data_sha256 !== run.data_sha256) {
    warnings.push(
      `the baseline ran on other data: ${baseline.file ?? "?"} (sha256 ${short(baseline.data_sha256)}), this run ${run.file} (sha256 ${short(run.data_sha256)})`,
    );
  }
  if (baseline.profile !== undefined && baseline.profile !== run.profile) {
    warnings.push(`the baseline ran profile ${baseline.profile}, this run ${run.profile}`);
  } else if (baseline.profile_file !== undefined && baseline.profile_file !== run.profile_file) {
    warnings.push(
      `the baseline's profile came from ${baseline.profile_file}, this run's from ${run.profile_file}`,
    );
  }
  return warnings;
}

export async function loadBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`--baseline ${file}: cannot read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--baseline ${file}: not JSON (${(error as Error).message}); save one with --json`);
  }
  const parsed = baselineSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--baseline ${file}: not a batch summary: ${issue?.path.join(".") || "(root)"}: ${issue?.message}; save one with --json`,
    );
  }
  if (parsed.data.interrupted === true) {
    // Its figures cover the rows done before Ctrl-C: a run of the whole file would be compared with part of it.
    throw new UsageError(
      `--baseline ${file}: the run it saved was interrupted; save the summary of a complete run`,
    );
  }
  if (parsed.data.metrics === null) {
    throw new UsageError(`--baseline ${file}: the baseline run was unlabelled; it has no metrics to compare`);
  }
  return parsed.data as unknown as Baseline;
}
