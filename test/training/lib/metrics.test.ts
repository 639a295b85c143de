import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readJsonl, readLines } from "../../../training/lib/jsonl.js";
import { atThreshold, recallAtFpr, rocAucOf, type Scored } from "../../../training/lib/metrics.js";
import { mulberry32 } from "../../../training/lib/random.js";

/** The Mann–Whitney statistic by average ranks (ties share their mean rank): the textbook formula. */
function rankSumAuc(rows: readonly Scored[]): number | null {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]?.score === sorted[i]?.score) j++;
    for (let k = i; k < j; k++) if (sorted[k]?.label === 1) rankSum += (i + j + 1) / 2;
    i = j;
  }
  const pos = rows.filter((r) => r.label === 1).length;
  const neg = rows.length - pos;
  return pos && neg ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : null;
}

describe("rocAucOf (the runtime's ROC-AUC)", () => {
  it("is the rank-sum formula to the last bit, ties included", () => {
    const random = mulberry32(3);
    for (let trial = 0; trial < 400; trial++) {
      const levels = [2, 7, 100, 1e9][trial % 4] as number;
      const rows = Array.from({ length: 1 + Math.floor(random() * 300) }, () => ({
        score: Math.floor(random() * levels) / levels,
        label: (random() < 0.3 ? 1 : 0) as 0 | 1,
      }));
      expect(rocAucOf(rows)).toBe(rankSumAuc(rows));
    }
  });

  it("counts a tie half and needs both classes", () => {
    const rows: Scored[] = [
      { score: 0.9, label: 1 },
      { score: 0.5, label: 1 },
      { score: 0.5, label: 0 },
      { score: 0.1, label: 0 },
    ];
    expect(rocAucOf(rows)).toBe(0.875);
    expect(rocAucOf(rows.filter((r) => r.label === 1))).toBeNull();
  });
});

describe("atThreshold and recallAtFpr", () => {
  const rows: Scored[] = [
    ...[0.9, 0.8, 0.6, 0.3].map((score) => ({ score, label: 1 as const })),
    ...[0.7, 0.2, 0.1, 0.1, 0.05].map((score) => ({ score, label: 0 as const })),
  ];

  it("flags score ≥ threshold, and is 0 where a ratio is undefined", () => {
    expect(atThreshold(rows, 0.6)).toEqual({ precision: 0.75, recall: 0.75, f1: 0.75, fpr: 0.2, n: 9 });
    expect(atThreshold(rows, 0.95)).toEqual({ precision: 0, recall: 0, f1: 0, fpr: 0, n: 9 });
  });

  it("cuts strictly above the negative the FPR budget reaches", () => {
    // 5 negatives: a 20% budget allows one (0.7), so the cut is the next one down (0.2).
    expect(recallAtFpr(rows, 0.2)).toBe(1);
    // No budget: flag only above the top negative.
    expect(recallAtFpr(rows, 0)).toBe(0.5);
  });
});

describe("readJsonl and readLines", () => {
  it("skip blank lines and read gzipped files", () => {
    const dir = mkdtempSync(join(tmpdir(), "jsonl-"));
    try {
      const text = '{"a":1}\n\n  \n{"a":2}\r\n';
      writeFileSync(join(dir, "rows.jsonl"), text);
      writeFileSync(join(dir, "rows.jsonl.gz"), gzipSync(text));
      expect(readJsonl(join(dir, "rows.jsonl"))).toEqual([{ a: 1 }, { a: 2 }]);
      expect(readJsonl(join(dir, "rows.jsonl.gz"))).toEqual([{ a: 1 }, { a: 2 }]);
      expect(readLines(join(dir, "rows.jsonl"))).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
