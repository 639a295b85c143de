/**
 * Compares leave-one-source-out runs by role: for each held-out group, its documents and e-mails
 * (sent as tool results) and its prompts, side by side from runs written by `loso.ts --out`.
 *   npx tsx training/llm/by-role-table.ts NAME=FILE.jsonl [NAME=FILE.jsonl …]
 * e.g. `base=/tmp/base-sent.jsonl data=/tmp/data-sent.jsonl`: the shipped pair of models is
 * `base` for prompts and `data` for documents: a pair that judges tool results with the second model.
 */
import { readFileSync } from "node:fs";
import { runMain } from "../lib/main.js";
import type { Metrics } from "./metrics.js";

interface Row {
  group: string;
  byRole: { data: Metrics | null; prompt: Metrics | null };
}

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(3));

function main(argv: string[]): void {
  if (argv.length === 0 || argv.some((a) => !a.includes("=")))
    throw new Error("usage: npx tsx training/llm/by-role-table.ts NAME=FILE.jsonl [NAME=FILE.jsonl …]");
  const runs = argv.map((a) => {
    const [name, file] = a.split(/=(.*)/su) as [string, string];
    const rows = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    return { name, rows: new Map(rows.map((r) => [r.group, r])) };
  });
  const groups = [...new Set(runs.flatMap((r) => [...r.rows.keys()]))];
  const head = runs.map((r) => `${r.name} AUC | ${r.name} recall | ${r.name} FPR`).join(" | ");
  console.log(`| held-out group | role | n | attacks | ${head} |`);
  console.log(`|---|---|---:|---:|${runs.map(() => "---:|---:|---:").join("|")}|`);
  for (const group of groups)
    for (const role of ["data", "prompt"] as const) {
      const ms = runs.map((r) => r.rows.get(group)?.byRole[role] ?? null);
      const any = ms.find((m) => m !== null);
      if (!any) continue;
      const cells = ms.map((m) => `${fmt(m?.auc)} | ${fmt(m?.recall)} | ${fmt(m?.fpr)}`).join(" | ");
      console.log(`| ${group} | ${role} | ${any.n} | ${any.positives} | ${cells} |`);
    }
}

runMain(import.meta.url, main);
