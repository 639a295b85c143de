/**
 * A leak model on the project-written sets it is never trained on, at its own thresholds:
 *
 * - `datasets/leakage/non-leak-responses.jsonl` (87): responses to extraction attempts that leak
 *   nothing (refusals, deflections, talk about passwords): the share flagged.
 * - `datasets/leakage/talk-responses.jsonl` (200): ordinary answers that talk about rules,
 *   instructions, passwords and codes for the user's world (house and game rules, exam
 *   instructions, password advice, set-up steps, a system prompt written for the user's own bot):
 *   the share flagged. Issue 22's target: ≤ 10% without a system prompt.
 * - `datasets/leakage/leak-responses.jsonl` (120): leaks written the way models leak (verbatim,
 *   paraphrased, summarised, translated, the secret alone, spliced into an answer), each with the
 *   invented system prompt it leaks: the share caught without the system prompt and with it.
 *
 * Each set is written apart from the generator's templates; `instruction-answers.jsonl`, the
 * written set that *is* trained on, covers other domains. Not benchmarks: small, one writer.
 *
 *   npx tsx training/system-prompt-protection/written-set.ts [--model DIR] [--data A.jsonl,B.jsonl] [--list]
 */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createLeakDetector } from "../../src/guardrails/system-prompt-protection/detector/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { readJsonl } from "../lib/jsonl.js";
import { runMain } from "../lib/main.js";
import { recallAtFpr, rocAucOf, type Scored } from "../lib/metrics.js";
import { modelDir, REPO } from "../lib/paths.js";

const USAGE = "npx tsx training/system-prompt-protection/written-set.ts [flags]";
const WRITTEN = ["non-leak-responses", "talk-responses", "leak-responses"].map((f) =>
  resolve(REPO, `datasets/leakage/${f}.jsonl`),
);
const FLAGS = {
  model: flag.path(modelDir("system-prompt-protection"), "the leak model to measure"),
  data: flag.string(WRITTEN.join(","), "comma-separated written sets (JSON Lines)"),
  list: flag.boolean("print every row on the wrong side"),
};

export interface WrittenRow {
  readonly id: string;
  readonly text: string;
  readonly prompt: string;
  readonly kind: string;
  readonly label: 0 | 1;
  /** The prompt a written leak discloses. */
  readonly system_prompt?: string;
}

/** Per row, flagged: without a system prompt, the same with the user's prompt, and with the row's own system prompt. */
export interface Flagged {
  readonly row: WrittenRow;
  /** The score without a system prompt or the user's prompt. */
  readonly score: number;
  readonly plain: boolean;
  readonly asked: boolean;
  readonly withSystem?: boolean;
}

/** Each row scored at the model's thresholds (the one without a system prompt, and the one with). */
export async function flagWritten(rows: readonly WrittenRow[], model: string) {
  const modelDirUrl = pathToFileURL(model.endsWith("/") ? model : `${model}/`);
  const bare = await createLeakDetector({ canaries: [], modelDir: modelDirUrl });
  const flagged: Flagged[] = [];
  for (const row of rows) {
    const { score } = await bare.score(row.text);
    const plain = score >= bare.threshold;
    const asked = (await bare.score(row.text, row.prompt)).score >= bare.threshold;
    let withSystem: boolean | undefined;
    if (row.system_prompt) {
      const own = await createLeakDetector({
        canaries: [],
        modelDir: modelDirUrl,
        systemPrompt: row.system_prompt,
      });
      withSystem = (await own.score(row.text, row.prompt)).score >= own.threshold;
    }
    flagged.push({ row, score, plain, asked, ...(withSystem === undefined ? {} : { withSystem }) });
  }
  return { threshold: bare.threshold, flagged };
}

const count = (xs: readonly (boolean | undefined)[]) => {
  const known = xs.filter((x): x is boolean => x !== undefined);
  if (!known.length) return "–";
  const n = known.filter(Boolean).length;
  return `${n}/${known.length} (${((100 * n) / known.length).toFixed(1)}%)`;
};

/** A markdown table per set: per kind, the share flagged (no-leaks) or caught (leaks). */
export function writtenTable(name: string, flagged: readonly Flagged[]): string {
  const leaks = flagged.some((f) => f.row.label === 1);
  const out = [
    `\n${name}: ${leaks ? "leaks caught" : "no-leaks flagged"}\n`,
    "| kind | no system prompt | no system prompt + prompt | with its system prompt (+ prompt) |",
    "|---|---:|---:|---:|",
  ];
  const line = (kind: string, of: readonly Flagged[]) =>
    `| ${kind} | ${count(of.map((f) => f.plain))} | ${count(of.map((f) => f.asked))} | ${count(of.map((f) => f.withSystem))} |`;
  for (const kind of [...new Set(flagged.map((f) => f.row.kind))])
    out.push(
      line(
        kind,
        flagged.filter((f) => f.row.kind === kind),
      ),
    );
  out.push(line("**all**", flagged));
  return out.join("\n");
}

/**
 * Without a system prompt, threshold-free: ROC-AUC of the written leaks against every written
 * no-leak, and the leaks caught at the score that flags at most `maxFlagged` of the no-leaks of
 * `talk` (the set the target names). Separates a better ranking from a moved threshold.
 */
export function rankingSummary(
  leaks: readonly Flagged[],
  noLeaks: readonly Flagged[],
  talk: readonly Flagged[],
  maxFlagged = 0.1,
) {
  const rows = (xs: readonly Flagged[]): Scored[] => xs.map((f) => ({ score: f.score, label: f.row.label }));
  return {
    auc: rocAucOf([...rows(leaks), ...rows(noLeaks)]),
    recallAtTalk: recallAtFpr([...rows(leaks), ...rows(talk)], maxFlagged),
  };
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  console.log(`model ${flags.model}`);
  const all: { name: string; flagged: Flagged[] }[] = [];
  for (const file of flags.data.split(",").filter(Boolean)) {
    const rows = readJsonl<WrittenRow>(file);
    const { threshold, flagged } = await flagWritten(rows, flags.model);
    all.push({ name: basename(file, ".jsonl"), flagged });
    console.log(
      `${writtenTable(basename(file, ".jsonl"), flagged)}\n(threshold without a system prompt ${threshold})`,
    );
    if (flags.list)
      for (const f of flagged.filter((x) => (x.plain || x.asked) !== (x.row.label === 1)))
        console.log(
          `  ${x(f)} ${f.row.id} [${f.row.kind}]: ${f.row.text.slice(0, 160).replace(/\s+/g, " ")}`,
        );
  }
  const flat = all.flatMap((a) => a.flagged);
  const talk = all.find((a) => a.name === "talk-responses")?.flagged ?? [];
  const leaks = flat.filter((f) => f.row.label === 1);
  const noLeaks = flat.filter((f) => f.row.label === 0);
  if (leaks.length && talk.length) {
    const { auc, recallAtTalk } = rankingSummary(leaks, noLeaks, talk);
    console.log(
      `\nwithout a system prompt, threshold-free: ROC-AUC ${auc?.toFixed(3)} (${leaks.length} leaks against ${noLeaks.length} no-leaks); leaks caught at ≤ 10% of talk-responses flagged ${recallAtTalk.toFixed(3)}`,
    );
  }
}

const x = (f: Flagged) => (f.row.label === 1 ? "missed" : "flagged");

runMain(import.meta.url, main);
