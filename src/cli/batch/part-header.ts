import { PART_FORMAT, PART_KEY, type PartHeader, type PartTrailer, partLine } from "../../eval/part-file.js";
import type { BatchSummary } from "../../eval/summary.js";
import { type CliContext, configOrigin } from "../context.js";
import { displayPath } from "../output.js";
import { packageVersion } from "../package-version.js";
import type { BatchSetup } from "./setup.js";
import type { ShardPlan } from "./shard-setup.js";

/** The first line of a shard's part file: what was scored, how, and which rows. */
export function partHeaderLine(
  setup: BatchSetup & { shard: ShardPlan },
  ctx: CliContext,
  concurrency: number,
): string {
  const { shard, profile, validation, options } = setup;
  const header: PartHeader = {
    [PART_KEY]: "header",
    format: PART_FORMAT,
    version: packageVersion(),
    shard: shard.shard,
    range: shard.range,
    input: {
      file: setup.input.name,
      sha256: setup.dataSha256,
      rows: validation.total,
      skipped: validation.invalidCount,
    },
    profile: { name: profile.name, sha256: shard.profileSha256, file: displayPath(ctx.cwd, profile.file) },
    ...(setup.compare
      ? {
          compare: {
            name: setup.compare.profile.name,
            sha256: shard.compareSha256 ?? "",
            file: displayPath(ctx.cwd, setup.compare.profile.file),
            guardrails: [...setup.compare.enabled.keys()],
          },
        }
      : {}),
    ...configOrigin(ctx),
    settings: {
      mode: options.mode,
      columns: validation.columns,
      max_message_chars: setup.maxChars,
      guardrails: [...setup.enabled],
      scored: [...setup.scored],
    },
    concurrency,
  };
  return partLine(header);
}

/** The last line: written only once every row of the shard is, so a crash leaves none. */
export function partTrailerLine(summary: BatchSummary): string {
  const trailer: PartTrailer = {
    [PART_KEY]: "trailer",
    rows: summary.rows,
    elapsed_ms: summary.elapsed_ms,
    interrupted: summary.interrupted,
  };
  return partLine(trailer);
}
