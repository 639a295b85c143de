import { describe, expect, it } from "vitest";
import { attachPlainProgress } from "../../../src/cli/batch/plain-view.js";
import { BatchRunner } from "../../../src/eval/runner.js";
import type { RowResult } from "../../../src/eval/summary.js";

const result = (row: number): RowResult => ({
  row,
  line: row + 1,
  id: null,
  label: null,
  category: null,
  flagged: false,
  latency_ms: 1,
  engine_ms: 1,
  guardrails: {},
});

describe("plain progress lines (off a terminal)", () => {
  it("prints the last row once, though the runner reports the last batch and then the end", async () => {
    const runner = new BatchRunner();
    const lines: string[] = [];
    attachPlainProgress(runner, (line) => lines.push(line));
    let clock = 0;
    const rows = [{ row: 1, line: 2, id: null, text: "a", label: null, category: null }];
    await runner.run({
      file: "f.csv",
      mode: "input",
      provenance: {
        data_sha256: "0".repeat(64),
        profile_file: "p.yaml",
        config_dir: null,
        config_source: "bundled",
      },
      profile: "p",
      concurrency: 0,
      guardrails: new Map(),
      scored: [],
      sweep: false,
      units: (async function* () {
        yield 1;
      })(),
      // The one batch takes 200 ms: long enough for the runner's in-loop progress event.
      evaluate: async () => {
        clock += 200;
        return { rows, results: [result(1)] };
      },
      total: 1,
      skipped: 0,
      window: 1,
      now: () => clock,
    });
    expect(lines).toEqual([expect.stringMatching(/^batch: 1 of 1 rows, 0 flagged/)]);
  });

  it("prints at most one line per interval before the end", () => {
    const runner = new BatchRunner();
    const lines: string[] = [];
    attachPlainProgress(runner, (line) => lines.push(line), 1000);
    const progress = (rows: number, elapsed_ms: number) =>
      runner.emit("progress", {
        rows,
        total: 10,
        flagged: 0,
        skipped: 0,
        confusion: { tp: 0, fp: 0, tn: 0, fn: 0 },
        f1: null,
        rows_per_s: 1,
        elapsed_ms,
      });
    progress(1, 100);
    progress(2, 1200);
    progress(3, 1300);
    progress(10, 1400);
    progress(10, 1500);
    expect(lines.map((l) => l.split(",")[0])).toEqual(["batch: 2 of 10 rows", "batch: 10 of 10 rows"]);
  });

  it("shows confusion counts only once a labelled row has been counted", () => {
    const runner = new BatchRunner();
    const lines: string[] = [];
    attachPlainProgress(runner, (line) => lines.push(line), 0);
    const base = { total: 2, flagged: 1, skipped: 0, f1: null, rows_per_s: 1 };
    runner.emit("progress", { ...base, rows: 1, confusion: { tp: 0, fp: 0, tn: 0, fn: 0 }, elapsed_ms: 1 });
    runner.emit("progress", {
      ...base,
      rows: 2,
      confusion: { tp: 1, fp: 0, tn: 0, fn: 0 },
      f1: 1,
      elapsed_ms: 2,
    });
    expect(lines).toEqual([
      "batch: 1 of 2 rows, 1 flagged, 1 rows/s\n",
      "batch: 2 of 2 rows, 1 flagged, tp 1 fp 0 tn 0 fn 0, f1 1.000, 1 rows/s\n",
    ]);
  });
});
