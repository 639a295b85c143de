import type { Example } from "./example.js";
import type { Split } from "./split.js";

/** A markdown table of examples per source and split, with the attack share. */
export function summarize(splits: Record<Split, Example[]>): string {
  const names = Object.keys(splits) as Split[];
  const counts = new Map<string, Record<Split, number>>();
  const attacks = new Map<string, number>();
  for (const split of names) {
    for (const e of splits[split]) {
      const row = counts.get(e.source) ?? { train: 0, calibration: 0, test: 0, heldout: 0 };
      row[split]++;
      counts.set(e.source, row);
      attacks.set(e.source, (attacks.get(e.source) ?? 0) + e.label);
    }
  }
  const lines = [
    `| source | label | ${names.join(" | ")} |`,
    `|---|---|${names.map(() => "---:").join("|")}|`,
  ];
  for (const [source, row] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const total = names.reduce((s, n) => s + row[n], 0);
    const a = attacks.get(source) ?? 0;
    const label = a === total ? "attack" : a === 0 ? "benign" : `${a} attacks`;
    lines.push(`| ${source} | ${label} | ${names.map((n) => row[n]).join(" | ")} |`);
  }
  const totals = names.map(
    (n) => `${splits[n].length} (${splits[n].filter((e) => e.label === 1).length} attacks)`,
  );
  lines.push(`| **total** | | ${totals.join(" | ")} |`);
  return lines.join("\n");
}
