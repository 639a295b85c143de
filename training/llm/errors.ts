/**
 * Error analysis of a trained model: the false negatives and false positives of one split at the
 * model's bundled threshold, grouped by source and template family (technique).
 *   node --import tsx training/llm/errors.ts [--split test|calibration] [--model models/llm]
 *                                                 [--out /tmp/llm-errors.jsonl]
 * Diagnosis only: nothing here feeds back into training or the threshold.
 */
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadInjectionClassifier } from "../../src/guardrails/llm/classifier.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { HELDOUT_SOURCES, loadPool } from "./data.js";
import { dedup } from "./dedup.js";
import { embedExamples } from "./embed.js";
import { splitByFamily } from "./split.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "../shared/datasets") },
    project: { type: "string", default: resolve(root, "datasets") },
    model: { type: "string", default: resolve(root, "models/llm") },
    split: { type: "string", default: "test" },
    seed: { type: "string", default: "20261122" },
    out: { type: "string" },
  },
});
const split = values.split as "train" | "calibration" | "test" | "heldout";
const seed = Number(values.seed);
const pool = loadPool({ shared: values.data, project: values.project }, seed);
const { kept, family } = dedup(pool);
const { splits } = splitByFamily(kept, family, HELDOUT_SOURCES, seed);
const examples = splits[split].filter((e) => e.kind !== "harmful-plain");
const classifier = await loadInjectionClassifier(values.model);
const encoder = createUseLiteEncoder({ intraOpThreads: 2 });
const embedded = await embedExamples(examples, encoder);
await encoder.close();
const t = classifier.threshold;
const rows = examples.map((e, i) => {
  const r = classifier.explain(e.text, embedded[i]);
  return {
    source: e.source,
    group: family.get(e) ?? e.group,
    kind: e.kind,
    label: e.label,
    score: Number(r.score.toFixed(3)),
    windows: embedded[i]?.windows.length ?? 0,
    words: e.text.split(/\s+/u).length,
    error: e.label === 1 && r.score < t ? "FN" : e.label === 0 && r.score >= t ? "FP" : "",
    worst: r.worst.slice(0, 160),
    text: e.text.slice(0, 300),
  };
});
const errors = rows.filter((r) => r.error);
if (values.out) writeFileSync(values.out, `${errors.map((r) => JSON.stringify(r)).join("\n")}\n`);
const count = (xs: typeof rows, key: (r: (typeof rows)[number]) => string) => {
  const m = new Map<string, number>();
  for (const r of xs) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]);
};
const bySource = new Map(count(rows, (r) => r.source));
console.log(`${split}: ${rows.length} texts, threshold ${t}`);
for (const kind of ["FN", "FP"] as const) {
  const xs = errors.filter((r) => r.error === kind);
  console.log(`\n## ${kind}: ${xs.length}`);
  for (const [s, n] of count(xs, (r) => r.source)) console.log(`  ${s}: ${n}/${bySource.get(s)}`);
  console.log("  by family (top 15):");
  for (const [g, n] of count(xs, (r) => `${r.source} | ${r.group}`).slice(0, 15))
    console.log(`    ${n}  ${g}`);
  const long = xs.filter((r) => r.windows > 1).length;
  console.log(`  multi-window texts: ${long}/${xs.length}`);
}
