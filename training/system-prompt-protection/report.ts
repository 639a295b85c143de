/** Prints the held-out figures as markdown tables (pasted into models/system-prompt-protection/MODEL_CARD.md). */

import { atThreshold, recallAtFpr, rocAucOf, type Scored } from "../lib/metrics.js";
import type { LeakExample } from "./generate.js";

const f = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(3));

export function summaryHeader(): string {
  return "| setting | n | threshold | ROC-AUC | precision | recall | F1 | FPR | recall @1% FPR |\n|---|---|---|---|---|---|---|---|---|";
}

export function summaryRow(name: string, rows: readonly Scored[], threshold: number): string {
  const m = atThreshold(rows, threshold);
  return `| ${name} | ${rows.length} | ${threshold} | ${f(rocAucOf(rows) ?? Number.NaN)} | ${f(m.precision)} | ${f(m.recall)} | ${f(m.f1)} | ${f(m.fpr)} | ${f(recallAtFpr(rows, 0.01))} |`;
}

/** Per kind: recall for leak kinds, false-positive rate for no-leak kinds. */
export function kindTable(
  settings: readonly { name: string; threshold: number; rows: readonly (Scored & { kind: string })[] }[],
): string {
  const kinds = [...new Set(settings.flatMap((s) => s.rows.map((r) => `${r.label}:${r.kind}`)))]
    .sort()
    .reverse();
  const lines = [
    `| kind | n | ${settings.map((s) => s.name).join(" | ")} |`,
    `|---|---|${settings.map(() => "---").join("|")}|`,
  ];
  for (const key of kinds) {
    const [label, kind] = key.split(":");
    const cells = settings.map((s) => {
      const rows = s.rows.filter((r) => `${r.label}:${r.kind}` === key);
      return f(rows.filter((r) => r.score >= s.threshold).length / Math.max(1, rows.length));
    });
    const n = settings[0]?.rows.filter((r) => `${r.label}:${r.kind}` === key).length ?? 0;
    lines.push(
      `| ${kind} (${label === "1" ? "leak, recall" : "no leak, FPR"}) | ${n} | ${cells.join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

type Result = { name: string; threshold: number; rows: (Scored & { kind: string })[] };

/** Everything the training script prints about the test split. */
export function testReport(results: readonly Result[], test: readonly LeakExample[]): string {
  const prompts = new Set(test.map((e) => e.group)).size;
  const out = [
    `\nHeld-out test (${test.length} responses from ${prompts} unseen system prompts), at each setting's threshold\n`,
    summaryHeader(),
    ...results.map((r) => summaryRow(r.name, r.rows, r.threshold)),
    "\nPer kind at each setting's threshold (leak kinds: recall; no-leak kinds: share flagged)\n",
    kindTable(results),
  ];
  for (const source of ["raccoonbench", "chatgpt_system_prompt"]) {
    const keep = (_: unknown, i: number) => (test[i] as LeakExample).group.startsWith(source);
    out.push(`\nTest, ${source} prompts only\n`, summaryHeader());
    for (const r of results) out.push(summaryRow(r.name, r.rows.filter(keep), r.threshold));
  }
  return out.join("\n");
}
