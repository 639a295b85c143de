import { UsageError } from "../../errors.js";
import type { CompareOptions } from "../../eval/compare.js";
import type { PartHeader } from "../../eval/part-file.js";
import type { PartEnds } from "../../eval/part-reader.js";
import { partRows } from "../../eval/part-reader.js";
import { openResultsWriter, type ResultsWriter } from "../../eval/results-writer.js";
import { BatchRunner, type Evaluated, type RunResult } from "../../eval/runner.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { CliContext } from "../context.js";
import type { MergeSetup } from "./merge-setup.js";
import { junitRowsOf } from "./outcome-setup.js";
import { attachPlainProgress } from "./plain-view.js";

/** `--compare` as the shards ran it: the runner tallies B's verdicts, which every row line carries. */
function compareOf(
  h: PartHeader,
  guardrails: ReadonlyMap<GuardrailId, number | null>,
): { compare?: CompareOptions } {
  if (!h.compare) return {};
  return {
    compare: {
      a: { profile: h.profile.name, profile_file: h.profile.file },
      b: { profile: h.compare.name, profile_file: h.compare.file },
      guardrails: { a: [...guardrails.keys()], b: h.compare.guardrails },
      scored: h.settings.scored,
    },
  };
}

/** The parts' rows one after another, in shard order: the data set's row order, checked across parts. */
async function* inOrder(parts: readonly PartEnds[]): AsyncGenerator<Evaluated> {
  let last = 0;
  for (const part of parts) {
    for await (const unit of partRows(part)) {
      const first = unit.rows[0]?.row ?? Number.POSITIVE_INFINITY;
      if (first <= last)
        throw new UsageError(
          `${part.file}: its rows start at row ${first}, not after the previous part's ${last}`,
        );
      last = unit.rows.at(-1)?.row ?? last;
      yield unit;
    }
  }
}

/**
 * Folds the parts' rows through the same runner and accumulator as one run over the whole file,
 * in the same order, so every figure is what that run computes from the same per-row scores. The
 * reported time is the shards' summed scoring time, not this merge's reading time.
 */
export async function mergeRows(setup: MergeSetup, ctx: CliContext): Promise<RunResult> {
  const { header: h, options, parts } = setup;
  const runner = new BatchRunner();
  if (options.quiet !== true && !ctx.json) attachPlainProgress(runner, ctx.io.stderr);
  const guardrails = new Map(h.settings.guardrails);
  let writer: ResultsWriter | undefined;
  try {
    writer = setup.outputs.out ? openResultsWriter(setup.outputs.out, [...guardrails.keys()]) : undefined;
    const sink = writer?.write.bind(writer);
    return await runner.run({
      file: h.input.file,
      mode: h.settings.mode,
      profile: h.profile.name,
      provenance: {
        data_sha256: h.input.sha256,
        profile_file: h.profile.file,
        config_dir: h.config_dir,
        config_source: h.config_source,
      },
      concurrency: h.concurrency,
      guardrails,
      scored: h.settings.scored,
      sweep: options.sweep === true,
      ...(setup.target ? { target: setup.target } : {}),
      units: inOrder(parts),
      evaluate: async (unit: Evaluated) => unit,
      total: h.input.rows,
      skipped: h.input.skipped,
      window: 1,
      ...(sink ? { sink } : {}),
      keepMisclassified: junitRowsOf(options),
      ...compareOf(h, guardrails),
      elapsedMs: parts.reduce((sum, p) => sum + (p.trailer?.elapsed_ms ?? 0), 0),
    });
  } finally {
    await writer?.close();
  }
}
