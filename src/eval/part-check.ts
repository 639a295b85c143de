import { isDeepStrictEqual } from "node:util";
import { UsageError } from "../errors.js";
import type { PartEnds } from "./part-reader.js";
import { describeShard, shardRange } from "./shard.js";

const short = (hash: string) => hash.slice(0, 12);

/** What must be the same in every part, in words, and how to read it from a header. */
const SAME: [string, (p: PartEnds) => unknown, (p: PartEnds) => string][] = [
  ["guardrail version", (p) => p.header.version, (p) => p.header.version],
  [
    "data set",
    (p) => p.header.input.sha256,
    (p) => `${p.header.input.file} (sha256 ${short(p.header.input.sha256)}…)`,
  ],
  [
    "profile",
    (p) => [p.header.profile, p.header.compare?.name, p.header.compare?.sha256],
    (p) =>
      `${p.header.profile.name} (sha256 ${short(p.header.profile.sha256)}…)` +
      (p.header.compare
        ? ` compared with ${p.header.compare.name} (sha256 ${short(p.header.compare.sha256)}…)`
        : ""),
  ],
  ["shard count", (p) => p.header.shard.count, (p) => `${p.header.shard.count} shards`],
  [
    "settings (mode, columns, --max-message-chars, guardrails)",
    (p) => [p.header.settings, p.header.input.rows, p.header.input.skipped],
    (p) => `${p.header.settings.mode} mode, ${p.header.input.rows} valid rows`,
  ],
];

/**
 * Refuses parts that do not make one run: another data set, profile, version or shard count than
 * the first part, a shard twice or missing, a part whose shard did not finish or whose range is not
 * its shard's. Returns the parts in shard order, which is file order.
 */
export function checkParts(parts: readonly PartEnds[]): PartEnds[] {
  const [first] = parts;
  if (first === undefined) throw new UsageError("batch merge: name the part files to merge");
  for (const [what, key, say] of SAME) {
    const other = parts.find((p) => !isDeepStrictEqual(key(p), key(first)));
    if (other)
      throw new UsageError(
        `batch merge: ${other.file} and ${first.file} differ in ${what}: ${say(other)} vs ${say(first)}; merge parts of one sharded run`,
      );
  }
  const { count } = first.header.shard;
  const byIndex = new Map<number, PartEnds>();
  for (const part of parts) {
    const seen = byIndex.get(part.header.shard.index);
    if (seen)
      throw new UsageError(
        `batch merge: ${part.file} and ${seen.file} are both shard ${describeShard(part.header.shard)}; pass each shard once`,
      );
    byIndex.set(part.header.shard.index, part);
  }
  const missing = [...Array(count).keys()].filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new UsageError(
      `batch merge: missing shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} of ${first.header.input.file}; got ${parts.length} of ${count} parts`,
    );
  const ordered = [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i) as PartEnds);
  for (const part of ordered) checkPart(part);
  return ordered;
}

function checkPart(part: PartEnds): void {
  const { header, trailer, file } = part;
  const range = shardRange(header.shard, header.input.rows);
  if (header.range.from !== range.from || header.range.to !== range.to)
    throw new UsageError(
      `${file}: rows ${header.range.from}–${header.range.to} are not shard ${describeShard(header.shard)}'s`,
    );
  if (trailer === undefined)
    throw new UsageError(
      `${file}: no trailer: shard ${describeShard(header.shard)} did not finish (or the file was cut short); score it again`,
    );
  if (trailer.interrupted || trailer.rows !== range.to - range.from)
    throw new UsageError(
      `${file}: shard ${describeShard(header.shard)} was interrupted after ${trailer.rows} of ${range.to - range.from} rows; score it again`,
    );
}
