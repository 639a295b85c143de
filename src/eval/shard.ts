/**
 * `--shard i/n`: which rows a shard scores. Shards take contiguous ranges of the valid rows (0-based
 * ordinals, bad rows skipped by `--skip-invalid` not counted), so concatenating the parts in shard
 * order gives the rows in file order: the merge then folds them exactly as one run would, ties in
 * the worst-mistakes lists included. Every shard validates the whole file, so all agree on the total.
 */
export interface Shard {
  /** 0-based, as Kubernetes' JOB_COMPLETION_INDEX. */
  readonly index: number;
  readonly count: number;
}

/** Valid-row ordinals `[from, to)` of a shard; ranges of one count are disjoint and cover `[0, total)`. */
export interface RowRange {
  readonly from: number;
  readonly to: number;
}

/** At most this many shards: a part per shard, and the merge opens them one after another. */
export const MAX_SHARDS = 10_000;

/** Parses `i/n`; the message says what was wrong, for the flag parser to prefix. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return `"${text}" is not i/n (e.g. 0/4: the first of four shards, counted from 0)`;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) return `the shard count ${count} must be from 1 to ${MAX_SHARDS}`;
  if (index >= count)
    return `shard ${index} of ${count}: shards are counted from 0, so i must be below ${count}`;
  return { index, count };
}

/** The shard's rows: n near-equal ranges, the larger ones last (floor division). */
export function shardRange(shard: Shard, total: number): RowRange {
  const at = (i: number) => Math.floor((i * total) / shard.count);
  return { from: at(shard.index), to: at(shard.index + 1) };
}

export const describeShard = (shard: Shard) => `${shard.index}/${shard.count}`;
