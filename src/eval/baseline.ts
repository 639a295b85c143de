import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UsageError } from "../errors.js";
import type { BatchSummary } from "./summary.js";

const ratio = z.number().nullable().optional();

/** Only what a comparison reads: a saved `--json` summary from this or a later version. */
const baselineSchema = z.object({
  version: z.number().int().optional(),
  interrupted: z.boolean().optional(),
  metrics: z.record(z.string(), ratio).nullable(),
  guardrails: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

export type Baseline = Pick<BatchSummary, "metrics" | "guardrails">;

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
