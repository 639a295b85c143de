/**
 * Writes the leak model's responses, their n-gram parts and the USE-lite vectors of their
 * sentences for training/heads/leak_head.py, which asks whether a head over those vectors helps
 * the learned signal without a system prompt (issue 22):
 *
 *   npx tsx training/system-prompt-protection/dump-vectors.ts --out DIR [--written]   # ~45 s
 *
 * Rows are the bundled model's examples (examples.ts: train, val, test) and the four project-written
 * sets (split `written`, `set` their file), each with `disclosure` and `disclosureWindow` from the
 * n-gram classifier fitted on the train split as train.ts fits it. A row's sentence vectors (the
 * sentences the detector's semantic part reads) are the row's `n` vectors from `at`
 * (training/lib/vector-dump.ts).
 */
import { join, resolve } from "node:path";
import { textScores } from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain, timedLog } from "../lib/main.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
import { writeVectorDump } from "../lib/vector-dump.js";
import { precomputedEncoder } from "./embed-cache.js";
import { buildExamples } from "./examples.js";
import { fitClassifiers } from "./fit.js";

const USAGE = "npx tsx training/system-prompt-protection/dump-vectors.ts --out DIR [--written]";
const FLAGS = {
  data: flag.path(resolve(SHARED_DATASETS, "leakage"), "the leakage data sets"),
  out: flag.path("", "the folder to write rows.jsonl and vectors.f32 to"),
  written: flag.boolean(
    "train the n-gram classifier with the written instruction answers, as train.ts --written",
  ),
};
const WRITTEN_SETS = ["non-leak-responses", "talk-responses", "leak-responses", "instruction-answers"];

interface Row {
  readonly split: string;
  readonly label: 0 | 1;
  readonly kind: string;
  readonly set: string;
  readonly text: string;
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  if (!flags.out) throw new UsageError("--out DIR is required", USAGE);
  const log = timedLog();
  const { examples } = buildExamples(flags.data, SEED, { written: flags.written });
  const { disclosure } = fitClassifiers(
    examples.filter((e) => e.split === "train"),
    SEED,
  );
  const rows: Row[] = examples.map((e) => ({
    split: e.split,
    label: e.label,
    kind: e.kind,
    set: "examples",
    text: e.response,
  }));
  for (const set of WRITTEN_SETS)
    for (const r of readJsonl<{ text: string; kind: string; label?: 0 | 1 }>(
      join(REPO, `datasets/leakage/${set}.jsonl`),
    ))
      rows.push({ split: "written", label: r.label ?? 0, kind: r.kind, set, text: r.text });
  const units = rows.map((r) => sentences(r.text, 64));
  const encoder = await precomputedEncoder(units.flat(), 2);
  log(`${rows.length} rows, ${new Set(units.flat()).size} sentences embedded`);

  const written = await writeVectorDump(
    flags.out,
    (async function* () {
      for (const [i, { text, ...row }] of rows.entries()) {
        const scores = textScores(disclosure, text);
        yield {
          row: { ...row, disclosure: scores.whole, disclosureWindow: scores.window },
          vectors: units[i]?.length ? await encoder.embed(units[i] ?? []) : [],
        };
      }
    })(),
  );
  log(`${written.rows} rows, ${written.vectors} vectors written to ${flags.out}`);
}

runMain(import.meta.url, main);
