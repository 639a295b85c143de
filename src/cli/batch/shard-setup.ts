import { extname } from "node:path";
import type { Profile } from "../../config/profile.js";
import { UsageError } from "../../errors.js";
import { sha256File } from "../../eval/sha256-file.js";
import { describeShard, type RowRange, type Shard, shardRange } from "../../eval/shard.js";
import type { BatchOptions } from "../commands/batch.js";

/** A shard's share of the rows, and what its part file's header needs beyond the run's setup. */
export interface ShardPlan {
  readonly shard: Shard;
  readonly range: RowRange;
  readonly profileSha256: string;
  /** With `--compare`: the second profile's YAML hash. */
  readonly compareSha256?: string;
}

// What judges or reports the whole data set belongs to the merge, which sees every row; a shard
// that gated its own share would pass or fail on a third of the evidence.
const MERGE_ONLY = [
  ["failUnder", "--fail-under"],
  ["maxFpr", "--max-fpr"],
  ["baseline", "--baseline"],
  ["junit", "--junit"],
  ["junitRows", "--junit-rows"],
  ["report", "--report"],
  ["writeProfile", "--write-profile"],
] as const;

/** Refuses, before any work, flags that make no sense on a shard, and a missing or non-JSONL --out. */
export function checkShardFlags(options: BatchOptions): void {
  const { shard, out } = options;
  if (shard === undefined) return;
  for (const [key, flag] of MERGE_ONLY) {
    if (options[key] === undefined) continue;
    throw new UsageError(
      `${flag} with --shard: a shard sees part of the data; pass it to \`guardrail batch merge\` instead`,
    );
  }
  const ext = out === undefined ? "" : extname(out).toLowerCase();
  if (ext !== ".jsonl" && ext !== ".ndjson")
    throw new UsageError(
      `--shard ${describeShard(shard)} writes its rows for \`batch merge\`: add --out part-${shard.index}.jsonl`,
    );
}

/** The shard's rows, once the validation pass has counted the valid ones, and the profiles' hashes. */
export async function planShard(
  shard: Shard,
  total: number,
  profile: Profile,
  compare: Profile | undefined,
): Promise<ShardPlan> {
  return {
    shard,
    range: shardRange(shard, total),
    profileSha256: await sha256File(profile.file),
    ...(compare ? { compareSha256: await sha256File(compare.file) } : {}),
  };
}
