/**
 * Writes the moderation pool's rows and their USE-lite window vectors (the embedding cache's) for
 * training/heads/moderation_head.py, which compares vector heads by leaving sources out:
 *
 *   npx tsx training/content-moderation/dump-vectors.ts --out DIR     # DIR/rows.jsonl, DIR/vectors.f32
 *
 * The format: training/lib/vector-dump.ts.
 */
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { writeVectorDump } from "../lib/vector-dump.js";
import { embedTexts } from "./embed-cache.js";
import { buildPools, rowWeight } from "./splits.js";

const USAGE = "npx tsx training/content-moderation/dump-vectors.ts --out DIR";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  out: flag.path("", "the folder to write rows.jsonl and vectors.f32 to"),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  if (!flags.out) throw new UsageError("--out DIR is required", USAGE);
  const log = timedLog();
  const pools = buildPools(flags.data, REPO, SEED, { holdout: false });
  const { vectors } = await embedTexts(
    pools.binary.map((r) => r.text),
    log,
  );
  const written = await writeVectorDump(
    flags.out,
    pools.binary.map((r) => ({
      row: {
        source: r.source,
        signal: r.signal ?? null,
        label: r.label ?? 0,
        weight: rowWeight(r),
        fold: r.fold,
      },
      vectors: vectors.get(r.text) ?? [],
    })),
  );
  log(`${written.rows} rows, ${written.vectors} vectors written to ${flags.out}`);
}

runMain(import.meta.url, main);
