import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { extname } from "node:path";
import { UsageError } from "../errors.js";
import type { GuardrailId } from "../guardrails/types.js";
import type { EvalRow } from "./rows.js";
import type { RowResult } from "./summary.js";

export interface ResultsWriter {
  /** `rows[i]` is the data row of `results[i]`: its text is written beside the result. */
  write(rows: readonly Pick<EvalRow, "text">[], results: readonly RowResult[]): Promise<void>;
  /** `last`: a line written after the rows (a part file's trailer). */
  close(last?: string): Promise<void>;
}

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** What `--out` can write: CSV or JSON Lines, told by the file's extension. */
export const RESULTS_EXTENSIONS = [".csv", ".jsonl", ".ndjson"] as const;

const FIELDS = ["flagged", "score", "threshold", "matched", "entities", "category", "error"] as const;

function csvLines(
  rows: readonly Pick<EvalRow, "text">[],
  results: readonly RowResult[],
  guardrails: readonly GuardrailId[],
): string {
  return results
    .map((r, i) => {
      const cells: unknown[] = [
        r.row,
        r.line,
        r.id,
        rows[i]?.text,
        r.label,
        r.category,
        r.flagged,
        r.latency_ms,
        r.engine_ms,
      ];
      for (const id of guardrails) {
        const g = r.guardrails[id];
        cells.push(
          g?.flagged,
          g?.score,
          g?.threshold,
          g?.matched.join("|"),
          g?.entities.join("|"),
          g?.category,
          g?.error,
        );
      }
      return `${cells.map(csvCell).join(",")}\n`;
    })
    .join("");
}

/**
 * Per-row results, streamed as they arrive: JSONL (one RowResult per line, with the row's `text`)
 * or CSV (a `text` column, then one column per guardrail field, lists joined with `|`), by the
 * file's extension. CSV cells are quoted as RFC 4180 says (https://www.rfc-editor.org/rfc/rfc4180).
 */
export function openResultsWriter(
  file: string,
  guardrails: readonly GuardrailId[],
  /** A line written before the rows: a part file's header (JSON Lines only). */
  first?: string,
): ResultsWriter {
  const ext = extname(file).toLowerCase();
  const format = ext === ".csv" ? "csv" : ext === ".jsonl" || ext === ".ndjson" ? "jsonl" : undefined;
  if (!format) throw new UsageError(`--out ${file}: use a .csv or .jsonl file`);
  const out: WriteStream = createWriteStream(file);
  const failed = once(out, "error").then(([error]) => {
    throw new UsageError(`--out ${file}: ${(error as Error).message}`);
  });
  failed.catch(() => {});
  const put = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, "drain"), failed]);
  };
  let header = format === "jsonl";
  if (first !== undefined) out.write(first);
  return {
    async write(rows, results) {
      if (!header) {
        const names = guardrails.flatMap((id) => FIELDS.map((f) => `${id}.${f}`));
        await put(
          `${["row", "line", "id", "text", "label", "category", "flagged", "latency_ms", "engine_ms", ...names].join(",")}\n`,
        );
        header = true;
      }
      await put(
        format === "csv"
          ? csvLines(rows, results, guardrails)
          : results
              .map((r, i) => {
                // The text right after the row's id, where a reader looks for it.
                const { row, line, id, ...rest } = r;
                return `${JSON.stringify({ row, line, id, text: rows[i]?.text, ...rest })}\n`;
              })
              .join(""),
      );
    },
    async close(last) {
      out.end(last);
      await Promise.race([once(out, "finish"), failed]);
    },
  };
}
