/**
 * Writes the leak model's responses, their n-gram parts and the USE-lite vectors of their
 * sentences for training/heads/leak_head.py, which asks whether a head over those vectors helps
 * the learned signal without a system prompt (issue 22):
 *
 *   npx tsx training/system-prompt-protection/dump-vectors.ts --out DIR [--written]   # ~2 min
 *
 * Rows are the bundled model's examples (examples.ts: train, val, test) and the four project-written
 * sets (split `written`, `set` their file), each with `disclosure` and `disclosureWindow` from the
 * n-gram classifier fitted on the train split as train.ts fits it. A row's sentence vectors (the
 * sentences the detector's semantic part reads) are rows `at` … `at + n − 1` of vectors.f32
 * (float32, 512 a row, little-endian).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { textScores } from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { flag, parseFlags, UsageError } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain, timedLog } from "../lib/main.js";
import { REPO, SEED, SHARED_DATASETS } from "../lib/paths.js";
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

  mkdirSync(flags.out, { recursive: true });
  const fd = openSync(join(flags.out, "vectors.f32"), "w");
  const lines: string[] = [];
  let at = 0;
  try {
    for (const [i, r] of rows.entries()) {
      const vectors = units[i]?.length ? await encoder.embed(units[i] ?? []) : [];
      for (const v of vectors) {
        const x = Float32Array.from(v);
        writeSync(fd, new Uint8Array(x.buffer));
      }
      const scores = textScores(disclosure, r.text);
      const { text: _, ...meta } = r;
      lines.push(
        JSON.stringify({
          ...meta,
          disclosure: scores.whole,
          disclosureWindow: scores.window,
          at,
          n: vectors.length,
        }),
      );
      at += vectors.length;
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(join(flags.out, "rows.jsonl"), `${lines.join("\n")}\n`);
  log(`${lines.length} rows, ${at} vectors written to ${flags.out}`);
}

runMain(import.meta.url, main);
