import { rocAucOf } from "../lib/metrics.js";

/** Threshold metrics for scores where higher means "attack". */
export interface Point {
  readonly threshold: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
}

export function at(threshold: number, attacks: readonly number[], benign: readonly number[]): Point {
  const tp = attacks.filter((s) => s >= threshold).length;
  const fp = benign.filter((s) => s >= threshold).length;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp / attacks.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { threshold, precision, recall, f1, fpr: fp / benign.length };
}

/** ROC-AUC (ties count half): the runtime's (src/eval/curves.ts). */
export function rocAuc(attacks: readonly number[], benign: readonly number[]): number {
  const rows = [
    ...attacks.map((score) => ({ score, label: 1 as const })),
    ...benign.map((score) => ({ score, label: 0 as const })),
  ];
  return rocAucOf(rows) ?? Number.NaN;
}

/** The lowest threshold on a 0.01 grid whose false-positive rate stays at or under `maxFpr`. */
export function thresholdForFpr(benign: readonly number[], maxFpr: number): number {
  for (let t = 0; t <= 100; t++) {
    const threshold = t / 100;
    if (benign.filter((s) => s >= threshold).length / benign.length <= maxFpr) return threshold;
  }
  return 1;
}
