/** Held-out figures: ROC-AUC, precision / recall / F1 / FPR at a threshold, recall at 1% FPR. */
export interface Scored {
  readonly score: number;
  readonly label: 0 | 1;
}

/** ROC-AUC by the rank-sum (Mann–Whitney U) formula, ties counted half. */
export function rocAuc(rows: readonly Scored[]): number {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && (sorted[j] as Scored).score === (sorted[i] as Scored).score) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++)
      if ((sorted[k] as Scored).label === 1) {
        rankSum += rank;
        positives++;
      }
    i = j;
  }
  const negatives = rows.length - positives;
  return positives && negatives
    ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives)
    : Number.NaN;
}

export interface AtThreshold {
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
}

export function atThreshold(rows: readonly Scored[], threshold: number): AtThreshold {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const r of rows) {
    const flagged = r.score >= threshold;
    if (r.label === 1) flagged ? tp++ : fn++;
    else flagged ? fp++ : tn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, fpr: fp + tn ? fp / (fp + tn) : 0 };
}

/** The best recall with at most `maxFpr` of negatives flagged (threshold just above a negative). */
export function recallAtFpr(rows: readonly Scored[], maxFpr: number): number {
  const negatives = rows
    .filter((r) => r.label === 0)
    .map((r) => r.score)
    .sort((a, b) => b - a);
  const allowed = Math.floor(negatives.length * maxFpr);
  const cut = negatives[allowed] ?? Number.NEGATIVE_INFINITY;
  const positives = rows.filter((r) => r.label === 1);
  return positives.filter((r) => r.score > cut).length / Math.max(1, positives.length);
}
