/**
 * Writes the moderation pool's rows and their USE-lite window vectors (the embedding cache's) for
 * training/heads/moderation_head.py, which compares vector heads by leaving sources out:
 *
 *   npx tsx training/content-moderation/dump-vectors.ts --out DIR     # DIR/rows.jsonl, DIR/vectors.f32
 *
 * A row's vectors are rows `at` … `at + n − 1` of vectors.f32 (float32, 512 a row, little-endian).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
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
  mkdirSync(flags.out, { recursive: true });
  const fd = openSync(join(flags.out, "vectors.f32"), "w");
  const rows: string[] = [];
  let at = 0;
  try {
    for (const r of pools.binary) {
      const v = vectors.get(r.text) ?? [];
      for (const x of v) writeSync(fd, new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
      rows.push(
        JSON.stringify({
          source: r.source,
          signal: r.signal ?? null,
          label: r.label ?? 0,
          weight: rowWeight(r),
          fold: r.fold,
          at,
          n: v.length,
        }),
      );
      at += v.length;
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(join(flags.out, "rows.jsonl"), `${rows.join("\n")}\n`);
  log(`${rows.length} rows, ${at} vectors written to ${flags.out}`);
}

runMain(import.meta.url, main);
