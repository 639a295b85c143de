import { describe, expect, it } from "vitest";
import { atOffset } from "../../../training/llm/operating-points.js";

const row = (group: string, label: 0 | 1, score: number, threshold: number) => ({
  group,
  view: "sent",
  label,
  score,
  threshold,
});

describe("operating points over held-out folds", () => {
  // Two folds with their own thresholds: an attack source and a benign one.
  const groups = new Map([
    ["attacks", [row("attacks", 1, 0.5, 0.4), row("attacks", 1, 0.35, 0.4)]],
    ["benign", [row("benign", 0, 0.25, 0.3), row("benign", 0, 0.32, 0.3)]],
  ]);

  it("at offset 0 each fold is judged at its own threshold", () => {
    const s = atOffset(groups, 0);
    expect(s.recall).toBe(0.5);
    expect(s.fpr).toBe(0.5);
    expect(s.balanced).toBe(0.5);
  });

  it("moves every fold's threshold by the same offset", () => {
    expect(atOffset(groups, -0.06)).toMatchObject({ recall: 1, fpr: 1 });
    expect(atOffset(groups, 0.03)).toMatchObject({ recall: 0.5, fpr: 0, balanced: 0.75 });
  });
});
