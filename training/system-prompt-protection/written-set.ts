/**
 * The share of the project-written non-leak responses to extraction attempts
 * (datasets/leakage/non-leak-responses.jsonl) that a leak model flags without a system prompt,
 * with and without the originating prompt, at the model's own threshold. The set is written
 * apart from the generator's templates and never trained on: it checks the issue-12 weakness
 * (refusals, deflections and talk about passwords read as disclosures) on phrasings the
 * generator does not make. Not a benchmark: 87 rows, all label 0.
 *
 *   npx tsx training/system-prompt-protection/written-set.ts [--model DIR]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createLeakDetector } from "../../src/guardrails/system-prompt-protection/detector/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain } from "../lib/main.js";
import { modelDir, REPO } from "../lib/paths.js";

const USAGE = "npx tsx training/system-prompt-protection/written-set.ts [flags]";
const FLAGS = {
  model: flag.path(modelDir("system-prompt-protection"), "the leak model to measure"),
  data: flag.path(resolve(REPO, "datasets/leakage/non-leak-responses.jsonl"), "the written set"),
};

export interface WrittenRow {
  readonly id: string;
  readonly text: string;
  readonly prompt: string;
  readonly kind: string;
}

/** Per row: flagged without the prompt, flagged with it. */
export async function flagWritten(rows: readonly WrittenRow[], model: string) {
  const dir = pathToFileURL(model.endsWith("/") ? model : `${model}/`);
  const detector = await createLeakDetector({ canaries: [], modelDir: dir });
  const out: { row: WrittenRow; plain: boolean; asked: boolean }[] = [];
  for (const row of rows) {
    const plain = (await detector.score(row.text)).score >= detector.threshold;
    const asked = (await detector.score(row.text, row.prompt)).score >= detector.threshold;
    out.push({ row, plain, asked });
  }
  return { threshold: detector.threshold, flagged: out };
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const rows = readJsonl<WrittenRow>(flags.data);
  const { threshold, flagged } = await flagWritten(rows, flags.model);
  const share = (xs: readonly boolean[]) => `${xs.filter(Boolean).length}/${xs.length}`;
  console.log(`${flags.model}: threshold without a system prompt ${threshold}\n`);
  console.log("| kind | no system prompt | no system prompt + prompt |\n|---|---:|---:|");
  for (const kind of [...new Set(rows.map((r) => r.kind))]) {
    const of = flagged.filter((f) => f.row.kind === kind);
    console.log(`| ${kind} | ${share(of.map((f) => f.plain))} | ${share(of.map((f) => f.asked))} |`);
  }
  const plain = flagged.map((f) => f.plain);
  const asked = flagged.map((f) => f.asked);
  const pct = (xs: boolean[]) => ((100 * xs.filter(Boolean).length) / xs.length).toFixed(1);
  console.log(`| all | ${share(plain)} (${pct(plain)}%) | ${share(asked)} (${pct(asked)}%) |`);
  for (const f of flagged.filter((x) => x.plain || x.asked))
    console.log(`  flagged ${f.row.id}: ${f.row.text}`);
}

runMain(import.meta.url, main);
