/**
 * Leave-one-source-out for the vector guardrail (issue 12). The bundled index holds the project's
 * own corpus only, so every public attack source is held out of it: the figure before this round.
 * Then, for each choice of public sources added to the index (each new source alone, and all of
 * them), every public attack source is held out in turn: the index is the project corpus and the
 * added sources but the held-out one, the threshold is set by the bundled threshold's rule (the
 * lowest on a 0.01 grid with at most 2% false positives over the benign sets of eval.ts), and the
 * held-out source's attacks are scored at it. Criterion: macro recall and F1 over held-out sources,
 * with no benign set's FPR raised (the new hard negatives included).
 *
 * Each text is embedded once and scored against each part of the index separately: a text's score
 * against a union of parts is the best of its scores against them, so every fold is a max.
 *
 *   npx tsx training/vector/loso.ts
 */
import { createHash } from "node:crypto";
import { requestEmbeddings } from "../../src/engine/embedding.js";
import { buildIndex } from "../../src/guardrails/vector/build.js";
import type { VectorIndex } from "../../src/guardrails/vector/index-file.js";
import { createNativeScanner } from "../../src/guardrails/vector/native-scan.js";
import { scoreText } from "../../src/guardrails/vector/refine.js";
import { loadIndex } from "../../src/guardrails/vector/store.js";
import { bundledTarget } from "../../src/guardrails/vector/targets.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { cleanText } from "../../src/text/normalize.js";
import { runMain, timedLog } from "../lib/main.js";
import { candidateSources, foldParts, newHardNegatives, PROJECT } from "./loso-sets.js";
import { at, thresholdForFpr } from "./metrics.js";
import { type EvalSet, loadSets, SHARED } from "./sets.js";

const MAX_FPR = 0.02;
const BUNDLED_THRESHOLD = 0.8;

interface Scored {
  readonly set: EvalSet;
  /** Per index part, each text's best cosine against that part's rows. */
  readonly byPart: ReadonlyMap<string, Float64Array>;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fmt = (x: number) => x.toFixed(3);
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A text's scores against the union of `parts`. */
function scoresOf(s: Scored, parts: readonly string[]): number[] {
  const out = new Array<number>(s.set.texts.length).fill(0);
  for (const part of parts) {
    const v = s.byPart.get(part) as Float64Array;
    for (let i = 0; i < out.length; i++) out[i] = Math.max(out[i] as number, v[i] as number);
  }
  return out;
}

/** F1 as if the held-out attacks met as many benign prompts: precision = recall / (recall + FPR). */
const balancedF1 = (recall: number, fpr: number) => {
  const p = recall + fpr === 0 ? 0 : recall / (recall + fpr);
  return p + recall === 0 ? 0 : (2 * p * recall) / (p + recall);
};

async function main(): Promise<void> {
  const log = timedLog();
  const encoder = createUseLiteEncoder({ intraOpThreads: 2, maxBatch: 64 });
  const loaded = await loadIndex(await bundledTarget(), encoder);
  for (const note of loaded.notes) console.warn(`warning: ${note}`);
  const candidates = candidateSources(SHARED);
  const parts = new Map<string, VectorIndex>([[PROJECT, loaded.index]]);
  for (const c of candidates) {
    const sha256 = createHash("sha256")
      .update(c.entries.map((e) => e.text).join("\n"))
      .digest("hex");
    const built = await buildIndex([{ file: c.name, sha256, entries: c.entries }], encoder);
    parts.set(c.name, built.index);
    log(`${c.name}: ${c.entries.length} entries, ${built.index.rows} rows`);
  }
  const scanners = new Map(
    await Promise.all([...parts].map(async ([k, v]) => [k, await createNativeScanner(v)] as const)),
  );

  const base = loadSets();
  const ruleBenign = base.filter((s) => s.label === 0);
  const sets = [
    ...base,
    ...candidates.map((c) => c.attacks),
    ...candidates.flatMap((c) => (c.benign ? [c.benign] : [])),
    ...newHardNegatives(SHARED),
  ];
  const scored: Scored[] = [];
  for (const set of sets) {
    const byPart = new Map([...parts.keys()].map((k) => [k, new Float64Array(set.texts.length)]));
    for (const [i, text] of set.texts.entries()) {
      const { embedding, pieces } = requestEmbeddings(encoder, cleanText(text));
      for (const [k, scanner] of scanners) {
        (byPart.get(k) as Float64Array)[i] = (await scoreText(scanner.best, embedding, pieces)).score;
      }
    }
    scored.push({ set, byPart });
    log(`${set.name}: ${set.texts.length} texts`);
  }
  await Promise.all([...[...scanners.values()].map((s) => s.close()), encoder.close()]);

  const attacks = scored.filter((s) => s.set.label === 1);
  const benign = scored.filter((s) => s.set.label === 0);
  const isRule = (s: Scored) => ruleBenign.includes(s.set);
  const ruleThreshold = (index: readonly string[]) =>
    thresholdForFpr(
      benign.filter(isRule).flatMap((s) => scoresOf(s, index)),
      MAX_FPR,
    );
  const candidateNames = candidates.map((c) => c.name);
  const choices: { name: string; added: string[] }[] = [
    { name: "bundled (before)", added: [] },
    ...candidateNames.map((n) => ({ name: `+ ${n}`, added: [n] })),
    { name: "+ all three", added: candidateNames },
  ];

  const header = `| | ${choices.map((c) => c.name).join(" | ")} |\n|---|${choices.map(() => "---:").join("|")}|`;
  const recallRows = attacks.map((s) => [`| ${s.set.name} (n=${s.set.texts.length})`]);
  const benignRows = benign.map((s) => [`| ${s.set.name} (n=${s.set.texts.length})`]);
  const summary = {
    threshold: ["| threshold of the shipped index (rule)"],
    recall: ["| macro recall"],
    f1: ["| macro F1 (equal prevalence)"],
    fpr: ["| macro FPR, benign sets of the rule"],
    hard: ["| macro FPR, new benign sets"],
    rows: ["| index rows"],
  };
  for (const choice of choices) {
    const shipped = [PROJECT, ...choice.added];
    const t = ruleThreshold(shipped);
    const recalls: number[] = [];
    const f1s: number[] = [];
    // Each held-out fold: the index without the held-out source, its threshold by the rule.
    const pooledFpr = new Map<string, number>();
    attacks.forEach((s, k) => {
      const index = foldParts(choice.added, candidates, s.set);
      const key = index.join("|");
      const foldT = ruleThreshold(index);
      if (!pooledFpr.has(key))
        pooledFpr.set(
          key,
          at(
            foldT,
            [],
            benign.filter(isRule).flatMap((b) => scoresOf(b, index)),
          ).fpr,
        );
      const r = at(foldT, scoresOf(s, index), []).recall;
      recalls.push(r);
      f1s.push(balancedF1(r, pooledFpr.get(key) as number));
      recallRows[k]?.push(`${fmt(r)}${foldT === t ? "" : ` @${foldT.toFixed(2)}`}`);
    });
    const fprs = benign.map((s, k) => {
      const f = at(t, [], scoresOf(s, shipped)).fpr;
      benignRows[k]?.push(pct(f));
      return f;
    });
    summary.threshold.push(t.toFixed(2));
    summary.recall.push(fmt(mean(recalls)));
    summary.f1.push(fmt(mean(f1s)));
    summary.fpr.push(pct(mean(fprs.filter((_, k) => isRule(benign[k] as Scored)))));
    summary.hard.push(pct(mean(fprs.filter((_, k) => !isRule(benign[k] as Scored)))));
    summary.rows.push(String(shipped.reduce((n, p) => n + (parts.get(p)?.rows ?? 0), 0)));
  }
  const print = (rows: string[][]) => {
    for (const r of rows) console.log(`${r.join(" | ")} |`);
  };
  console.log(
    `\nheld-out attack sources: recall at the fold's threshold (by the rule; shown when it differs)\n${header}`,
  );
  print(recallRows);
  print(Object.values(summary));
  console.log(`\nbenign sets: FPR at the shipped index's threshold\n${header}`);
  print(benignRows);
  const before = attacks.map((s) => at(BUNDLED_THRESHOLD, scoresOf(s, [PROJECT]), []).recall);
  console.log(`\nbundled index at the bundled ${BUNDLED_THRESHOLD}: macro recall ${fmt(mean(before))}`);
}

runMain(import.meta.url, main);
