/**
 * Scores held-out attacks and benign prompts against the bundled index and recommends the
 * default threshold: the lowest one that keeps false positives on benign prompts at or under 2%.
 *   npx tsx training/vector/eval.ts
 */
import { performance } from "node:perf_hooks";
import { requestEmbeddings } from "../../src/engine/embedding.js";
import { createNativeScanner, type Scanner } from "../../src/guardrails/vector/native-scan.js";
import { scoreText } from "../../src/guardrails/vector/refine.js";
import { loadIndex } from "../../src/guardrails/vector/store.js";
import { bundledTarget } from "../../src/guardrails/vector/targets.js";
import type { Encoder } from "../../src/models/encoder.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { cleanText } from "../../src/text/normalize.js";
import { runMain } from "../lib/main.js";
import { at, rocAuc, thresholdForFpr } from "./metrics.js";
import { type EvalSet, loadSets } from "./sets.js";

const MAX_FPR = 0.02;

/** The detector's own scoring (shared windows, and pieces past one window), one text at a time. */
async function score(set: EvalSet, encoder: Encoder, scanner: Scanner): Promise<number[]> {
  const scores: number[] = [];
  for (const text of set.texts) {
    const { embedding, pieces } = requestEmbeddings(encoder, cleanText(text));
    const scored = await scoreText(scanner.best, embedding, pieces);
    scores.push(scored.score);
  }
  return scores;
}

async function main(): Promise<void> {
  const encoder = createUseLiteEncoder({ intraOpThreads: 2, maxBatch: 64 });
  const loaded = await loadIndex(await bundledTarget(), encoder);
  for (const note of loaded.notes) console.warn(`warning: ${note}`);
  const { index } = loaded;
  const scanner = await createNativeScanner(index);
  const started = performance.now();
  const scored = [];
  for (const set of loadSets()) scored.push({ set, scores: await score(set, encoder, scanner) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const attacks = scored.filter((s) => s.set.label === 1).flatMap((s) => s.scores);
  const benign = scored.filter((s) => s.set.label === 0).flatMap((s) => s.scores);
  const publicBenign = scored
    .filter((s) => s.set.label === 0 && !s.set.projectWritten)
    .flatMap((s) => s.scores);
  const recommended = thresholdForFpr(benign, MAX_FPR);

  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const row = (p: ReturnType<typeof at>) =>
    `${p.threshold.toFixed(2)}  P ${p.precision.toFixed(3)}  R ${p.recall.toFixed(3)}  F1 ${p.f1.toFixed(3)}  FPR ${pct(p.fpr)}`;
  console.log(
    `index: ${index.rows} rows; ${attacks.length} attacks, ${benign.length} benign; scored in ${seconds} s`,
  );
  console.log(
    `ROC-AUC ${rocAuc(attacks, benign).toFixed(4)} (public benign only: ${rocAuc(attacks, publicBenign).toFixed(4)})`,
  );
  const at1 = thresholdForFpr(benign, 0.01);
  console.log(
    `recall at 1% FPR: ${at(at1, attacks, benign).recall.toFixed(3)} (threshold ${at1.toFixed(2)})`,
  );
  console.log("\nthreshold sweep (all benign):");
  for (let t = 0.5; t <= 0.951; t += 0.05)
    console.log(`  ${row(at(Math.round(t * 100) / 100, attacks, benign))}`);
  console.log(
    `\nrecommended default: ${recommended.toFixed(2)} (lowest with FPR ≤ ${pct(MAX_FPR)} on all benign)`,
  );
  console.log(`  ${row(at(recommended, attacks, benign))}`);
  console.log(`  public benign only: FPR ${pct(at(recommended, attacks, publicBenign).fpr)}`);
  console.log("\nper set at the recommended threshold (attacks: recall; benign: false-positive rate):");
  for (const { set, scores } of scored) {
    const hits = scores.filter((s) => s >= recommended).length / scores.length;
    const median = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)] ?? 0;
    const what = set.label === 1 ? `recall ${pct(hits)}` : `FPR ${pct(hits)}`;
    console.log(
      `  ${set.name.padEnd(34)} n=${String(scores.length).padStart(4)}  ${what.padEnd(13)} median ${median.toFixed(3)}`,
    );
  }
  await Promise.all([scanner.close(), encoder.close()]);
}

runMain(import.meta.url, main);
