import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { atOffset, readRun } from "../../../training/llm/operating-points.js";

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

describe("reading a run's scores", () => {
  it("reads the view an app sends unless another is named", () => {
    const dir = mkdtempSync(join(tmpdir(), "op-points-"));
    try {
      const file = join(dir, "scores.jsonl");
      const lines = [
        { ...row("a", 1, 0.5, 0.4), view: "sent" },
        { ...row("a", 1, 0.2, 0.4), view: "strata" },
        { ...row("b", 0, 0.1, 0.4), view: "strata" },
      ];
      writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
      expect([...readRun(file).keys()]).toEqual(["a"]);
      expect(readRun(file).get("a")?.[0]?.score).toBe(0.5);
      expect([...readRun(file, "strata").keys()]).toEqual(["a", "b"]);
      expect(readRun(file, "strata").get("a")?.[0]?.score).toBe(0.2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
