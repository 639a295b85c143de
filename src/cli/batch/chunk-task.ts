import type { ColumnMap } from "../../eval/columns.js";
import { type ByteChunk, readChunk } from "../../eval/readers/chunks.js";
import type { TableFormat } from "../../eval/readers/types.js";
import { type EvalRow, toEvalRow } from "../../eval/rows.js";
import type { RowResult } from "../../eval/summary.js";

/** A byte range for a worker to read, parse and evaluate on its own thread. */
export interface ChunkTask {
  readonly file: string;
  readonly format: TableFormat;
  readonly columns: ColumnMap;
  readonly chunk: ByteChunk;
  /** Rows evaluated together (the encoder batches their windows). */
  readonly batchSize: number;
  /** Longer texts are invalid rows, as in the validation pass. */
  readonly maxChars: number;
  /** Send every row's text back (`--out` writes them), not only the misclassified rows'. */
  readonly allTexts?: boolean;
}

/**
 * What a chunk sends back, as one JSON string. Rows count from 1 in the chunk (the main thread adds
 * the rows before it, known once earlier chunks are in); `rows` is how many rows the reader saw,
 * valid or not. Texts travel only for the rows a report may quote (misclassified, or flipped
 * between the --compare profiles), unless `--out` writes them all.
 */
export interface ChunkReply {
  readonly rows: number;
  readonly results: RowResult[];
  readonly texts: Record<number, string>;
  readonly partial: boolean;
}

/** Rows a report may quote: misclassified ones, and with --compare those the profiles disagree on. */
const quoted = (r: RowResult) =>
  (r.label !== null && r.label !== r.flagged) ||
  (r.compared !== undefined && r.compared.flagged !== r.flagged);

export async function evaluateChunk(
  task: ChunkTask,
  evaluate: (rows: readonly EvalRow[]) => Promise<RowResult[]>,
  stopped: () => boolean,
): Promise<ChunkReply> {
  let rows = 0;
  const results: RowResult[] = [];
  const texts: Record<number, string> = {};
  let batch: EvalRow[] = [];
  const flush = async () => {
    const done = batch;
    batch = [];
    (await evaluate(done)).forEach((result, i) => {
      if (task.allTexts || quoted(result)) {
        texts[results.length] = done[i]?.text ?? "";
      }
      results.push(result);
    });
  };
  for await (const item of readChunk(task.file, task.format, task.chunk)) {
    if (item.kind === "columns") continue;
    rows++;
    if (item.kind === "invalid") continue; // reported and counted by the validation pass
    const parsed = toEvalRow(item, task.columns, task.maxChars);
    if ("invalid" in parsed) continue;
    batch.push(parsed.row);
    if (batch.length === task.batchSize) {
      if (stopped()) return { rows, results, texts, partial: true };
      await flush();
    }
  }
  if (batch.length > 0) {
    if (stopped()) return { rows, results, texts, partial: true };
    await flush();
  }
  return { rows, results, texts, partial: false };
}
