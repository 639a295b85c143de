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

/** Mann–Whitney: the probability that a random attack outscores a random benign text (ties ½). */
export function rocAuc(attacks: readonly number[], benign: readonly number[]): number {
  const all = [...attacks.map((s) => [s, 1] as const), ...benign.map((s) => [s, 0] as const)].sort(
    (a, b) => a[0] - b[0],
  );
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]?.[0] === all[i]?.[0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]?.[1] === 1) rankSum += rank;
    i = j + 1;
  }
  const n1 = attacks.length;
  return (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * benign.length);
}

/** The lowest threshold on a 0.01 grid whose false-positive rate stays at or under `maxFpr`. */
export function thresholdForFpr(benign: readonly number[], maxFpr: number): number {
  for (let t = 0; t <= 100; t++) {
    const threshold = t / 100;
    if (benign.filter((s) => s >= threshold).length / benign.length <= maxFpr) return threshold;
  }
  return 1;
}
