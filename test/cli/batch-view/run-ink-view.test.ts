import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { BatchEvents, Progress } from "../../../src/eval/summary.js";
import { sampleSummary } from "../../eval/report/sample-summary.js";

// Ink decides once, when it is first imported, whether it runs under CI (the CI variable, or any
// CI_* one), and then draws only the last frame. The view is never used under CI (wantsInkView
// says so), but this suite runs there: hide those variables while ink loads.
const ciVariables = Object.keys(process.env).filter((key) => key === "CI" || key.startsWith("CI_"));
const saved = ciVariables.map((key) => [key, process.env[key]] as const);
for (const key of ciVariables) delete process.env[key];
const { runInkView } = await import("../../../src/cli/batch-view/run-ink-view.js");
for (const [key, value] of saved) process.env[key] = value;

/** Enough of a terminal for ink: a width, a height and a write() that keeps everything. */
class FakeTerminal extends EventEmitter {
  readonly columns = 100;
  readonly rows = 40;
  readonly isTTY = true;
  written = "";
  write = (chunk: string) => {
    this.written += chunk;
    return true;
  };
}

const progress = (rows: number): Progress => ({
  rows,
  total: 200,
  flagged: rows / 4,
  skipped: 0,
  confusion: { tp: rows / 4, fp: 0, tn: (rows * 3) / 4, fn: 0 },
  f1: 1,
  rows_per_s: 100,
  elapsed_ms: rows * 10,
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: SGR colour codes are what NO_COLOR forbids
const COLOUR = /\u001b\[(3\d|9\d|1|2)m/;

describe("runInkView", () => {
  it("follows progress events, says when stopping, and ends with the summary", async () => {
    const events = new EventEmitter<BatchEvents>();
    const terminal = new FakeTerminal();
    const stop = new AbortController();
    const view = runInkView(events, {
      color: false,
      signal: stop.signal,
      stdout: terminal as unknown as NodeJS.WriteStream,
    });
    events.emit("progress", progress(100));
    await new Promise((r) => setTimeout(r, 50));
    expect(terminal.written).toContain("100/200 rows");
    stop.abort();
    await new Promise((r) => setTimeout(r, 50));
    expect(terminal.written).toContain("stopping");
    events.emit("progress", progress(200));
    await view.finish(sampleSummary());
    expect(terminal.written).toContain("200/200 rows");
    expect(terminal.written).toContain("200 rows evaluated");
    expect(terminal.written).toMatch(/guardrail +flagged +alone tp/);
    expect(terminal.written).not.toMatch(COLOUR);
    expect(events.listenerCount("progress")).toBe(0);
    view.close(); // harmless after finish
  });

  it("releases the terminal without a summary when the run fails", async () => {
    const events = new EventEmitter<BatchEvents>();
    const terminal = new FakeTerminal();
    const view = runInkView(events, { color: false, stdout: terminal as unknown as NodeJS.WriteStream });
    view.close();
    expect(events.listenerCount("progress")).toBe(0);
    await view.finish(sampleSummary()); // a no-op once closed
    expect(terminal.written).not.toContain("rows evaluated");
  });
});
