/**
 * Leave-one-source-out runs compared at the same operating points, not only at each run's own
 * threshold rule: a candidate that lowers false positives and recall together has only moved
 * along its curve, one that finds more attacks at the same macro FPR is better. Reads the
 * per-text scores `loso.ts --out` writes (OUT-scores.jsonl; several files of one run, e.g. two
 * `--only` halves, joined with commas), moves every fold's threshold by the same offset, and
 * prints macro recall, macro FPR and balanced accuracy over sources at each offset. A run's view
 * is `sent` (the view an app sends) unless `#VIEW` names another the run wrote (loso.ts
 * --length-strata's `short` and `strata`, --data-input's `unknown` and `tool`).
 *
 *   npx tsx training/llm/operating-points.ts NAME=A-scores.jsonl[,B-scores.jsonl][#VIEW] [NAME=…]
 */
import { readFileSync } from "node:fs";
import { runMain } from "../lib/main.js";
import { summarise } from "./loso.js";
import { metricsAt } from "./metrics.js";

interface ScoreRow {
  group: string;
  view: string;
  label: 0 | 1;
  score: number;
  threshold: number;
}

const OFFSETS = [-0.15, -0.1, -0.05, -0.02, 0, 0.02, 0.05, 0.1, 0.15, 0.2];

export function readRun(files: string, view = "sent"): Map<string, ScoreRow[]> {
  const groups = new Map<string, ScoreRow[]>();
  for (const file of files.split(",")) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line) continue;
      const row = JSON.parse(line) as ScoreRow;
      // Other views are the same fits' scores read another way (loso.ts VIEWS).
      if (row.view !== view) continue;
      const list = groups.get(row.group) ?? [];
      list.push(row);
      groups.set(row.group, list);
    }
  }
  return groups;
}

/** Macro figures over sources with every fold's own threshold moved by `offset`. */
export function atOffset(groups: ReadonlyMap<string, readonly ScoreRow[]>, offset: number) {
  return summarise(
    [...groups.values()].map((rows) => ({
      m: metricsAt(
        rows.map((r) => ({ label: r.label, score: r.score >= r.threshold + offset ? 1 : 0 })),
        0.5,
      ),
    })),
  );
}

function main(argv: string[]): void {
  if (argv.length === 0 || argv.some((a) => !a.includes("=")))
    throw new Error(
      "usage: npx tsx training/llm/operating-points.ts NAME=SCORES.jsonl[,MORE.jsonl][#VIEW] [NAME=…]",
    );
  const runs = argv.map((a) => {
    const [name, spec] = a.split(/=(.*)/su) as [string, string];
    const [files, view] = spec.split("#") as [string, string | undefined];
    return { name, groups: readRun(files, view) };
  });
  console.log(`| threshold offset | ${runs.map((r) => `${r.name}: recall / FPR / balanced`).join(" | ")} |`);
  console.log(`|---:|${runs.map(() => "---").join("|")}|`);
  for (const offset of OFFSETS) {
    const cells = runs.map(({ groups }) => {
      const s = atOffset(groups, offset);
      return `${s.recall.toFixed(3)} / ${s.fpr.toFixed(3)} / ${s.balanced.toFixed(3)}`;
    });
    console.log(`| ${offset > 0 ? "+" : ""}${offset.toFixed(2)} | ${cells.join(" | ")} |`);
  }
  console.log(`\nsources: ${runs.map((r) => `${r.name} ${r.groups.size}`).join(", ")}`);
}

runMain(import.meta.url, main);
