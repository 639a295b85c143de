import type { BatchRunner } from "../../eval/runner.js";
import type { Progress } from "../../eval/summary.js";

const f1 = (p: Progress) => (p.f1 === null ? "" : `, f1 ${p.f1.toFixed(3)}`);

/**
 * Progress as plain lines on stderr (no escape codes), at most one every `everyMs` and one for the
 * last row: what CI logs and pipes get. The terminal view replaces this on a TTY.
 */
export function attachPlainProgress(
  runner: BatchRunner,
  write: (line: string) => void,
  everyMs = 5000,
): void {
  let last = 0;
  let printed = -1;
  runner.on("progress", (p) => {
    // The runner reports the last batch and then the end of the run: the same rows twice.
    if (p.rows === printed || (p.elapsed_ms - last < everyMs && p.rows !== p.total)) return;
    last = p.elapsed_ms;
    printed = p.rows;
    const { tp, fp, tn, fn } = p.confusion;
    // Counted only over labelled rows: none so far (an unlabelled file) says nothing, so no line.
    const confusion = tp + fp + tn + fn > 0 ? `, tp ${tp} fp ${fp} tn ${tn} fn ${fn}${f1(p)}` : "";
    const of = p.total === null ? "" : ` of ${p.total}`;
    write(
      `batch: ${p.rows}${of} rows, ${p.flagged} flagged${confusion}, ${Math.round(p.rows_per_s)} rows/s\n`,
    );
  });
}
