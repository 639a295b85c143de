import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { extname } from "node:path";
import { UsageError } from "../errors.js";
import type { GuardrailId } from "../guardrails/types.js";
import type { RowResult } from "./summary.js";

export interface ResultsWriter {
  write(results: readonly RowResult[]): Promise<void>;
  close(): Promise<void>;
}

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** What `--out` can write: CSV or JSON Lines, told by the file's extension. */
export const RESULTS_EXTENSIONS = [".csv", ".jsonl", ".ndjson"] as const;

const FIELDS = ["flagged", "score", "threshold", "matched", "entities", "category", "error"] as const;

function csvLines(results: readonly RowResult[], guardrails: readonly GuardrailId[]): string {
  return results
    .map((r) => {
      const cells: unknown[] = [
        r.row,
        r.line,
        r.id,
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
 * Per-row results, streamed as they arrive: JSONL (one RowResult per line) or CSV (one column per
 * guardrail field, lists joined with `|`), by the file's extension.
 */
export function openResultsWriter(file: string, guardrails: readonly GuardrailId[]): ResultsWriter {
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
  return {
    async write(results) {
      if (!header) {
        const names = guardrails.flatMap((id) => FIELDS.map((f) => `${id}.${f}`));
        await put(
          `${["row", "line", "id", "label", "category", "flagged", "latency_ms", "engine_ms", ...names].join(",")}\n`,
        );
        header = true;
      }
      await put(
        format === "csv"
          ? csvLines(results, guardrails)
          : results.map((r) => `${JSON.stringify(r)}\n`).join(""),
      );
    },
    async close() {
      out.end();
      await Promise.race([once(out, "finish"), failed]);
    },
  };
}
