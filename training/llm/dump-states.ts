/**
 * Dumps the `llm` training pool's encoder windows with their token states (training/lib/token-states.ts)
 * for the heads trained in Python (training/heads/): every row of the pool `loso.ts` reads, cut
 * into windows exactly as the engine cuts `text.clean`, with what the leave-one-source-out protocol
 * needs to rebuild its splits: source, template family and the family's split hash.
 *
 *   npx tsx training/llm/dump-states.ts [--out DIR] [--count]
 */
import { join } from "node:path";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { hashRange } from "../../src/text/hash.js";
import { cleanText } from "../../src/text/normalize.js";
import { splitIntoWindows } from "../../src/text/windows.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { SEED } from "../lib/paths.js";
import { dumpTokenStates, type WindowRow } from "../lib/token-states.js";
import { CACHE_DIR } from "../lib/vector-cache.js";
import { DATA_FLAGS, HELDOUT_SOURCES, loadPool } from "./data.js";
import { dedup } from "./dedup.js";
import { NEVER_TRAINED, TRAINED_GROUPS } from "./loso.js";
import { ROUND4_SOURCES } from "./sources-round4.js";
import { dumpWindowFeatures } from "./window-features.js";

const USAGE = "npx tsx training/llm/dump-states.ts [flags]";
const FLAGS = {
  data: DATA_FLAGS.data,
  project: DATA_FLAGS.project,
  out: flag.path(join(CACHE_DIR, "llm-states"), "where the dump goes"),
  seed: flag.integer(SEED, "the seed of the pool and of the family split"),
  every: flag.integer(1, "keep every n-th text only (a small dump to try the Python side on)", { min: 1 }),
  featuresOnly: flag.boolean(
    "write only the n-gram and cue files into an existing dump (window-features.ts)",
  ),
  bits: flag.integer(18, "n-gram hash buckets, as a power of two (the shipped model's 18)", {
    min: 8,
    max: 24,
  }),
  count: flag.boolean("print the windows and tokens a dump would hold, and write nothing"),
};

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const { kept, family } = dedup(
    loadPool({ shared: flags.data, project: flags.project, round4: true }, flags.seed),
  );
  const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
  const rows: WindowRow[] = [];
  kept.forEach((e, ex) => {
    if (ex % flags.every !== 0) return;
    const clean = cleanText(e.text);
    const windows = splitIntoWindows(clean, (t) => encoder.countTokens(t), {
      tokenEnds: (t) => encoder.tokenEnds?.(t),
    });
    const payload = e.payload ? clean.indexOf(cleanText(e.payload)) : -1;
    const end = payload + (e.payload ? cleanText(e.payload).length : 0);
    const f = family.get(e) ?? e.group;
    // splitByFamily's own draw: below 0.15 a family is calibration, else train (split.ts).
    const u = hashRange(flags.seed, f, 0, f.length) / 4294967296;
    windows.forEach((w, i) => {
      rows.push({
        text: w.text,
        fields: {
          ex,
          w: i,
          of: windows.length,
          label: e.label,
          source: e.source,
          kind: e.kind,
          family: f,
          u,
          planted: payload >= 0 && w.start < end && w.end > payload,
        },
      });
    });
  });
  const tokens = rows.reduce((n, r) => n + Math.min(encoder.countTokens(r.text), encoder.maxTokens), 0);
  log(
    `${kept.length} texts, ${rows.length} windows, ${tokens} token rows (${((tokens * 1024) / 2 ** 30).toFixed(2)} GiB as float16)`,
  );
  if (flags.count) return;
  const features = () => {
    const n = dumpWindowFeatures(
      flags.out,
      rows.map((r) => r.text),
      1 << flags.bits,
    );
    log(`${n} n-gram features and ${rows.length} cue rows written to ${flags.out}`);
  };
  if (flags.featuresOnly) return features();
  const plan = {
    trained: TRAINED_GROUPS,
    round4: ROUND4_SOURCES,
    never: NEVER_TRAINED,
    heldout: [...HELDOUT_SOURCES],
  };
  await dumpTokenStates(flags.out, rows, encoder, { seed: flags.seed, plan, ngramBits: flags.bits }, log);
  features();
  await encoder.close();
  log(`wrote ${flags.out}`);
}

runMain(import.meta.url, main);
