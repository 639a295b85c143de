import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { ConfigError } from "../../errors.js";
import { parseCsv } from "./csv.js";

/** One known attack. Long ones become several index rows that share this id. */
export interface CorpusEntry {
  readonly id: string;
  readonly text: string;
  readonly technique?: string;
  /** ISO 639-1, when the corpus says. */
  readonly lang?: string;
}

export interface Corpus {
  readonly file: string;
  /** SHA-256 of the file's bytes: an index built from other bytes is stale. */
  readonly sha256: string;
  readonly entries: readonly CorpusEntry[];
}

/** Rows labelled 0 are benign examples kept beside the attacks; only 1 or no label counts. */
function isAttack(label: unknown): boolean | undefined {
  if (label === undefined || label === null || label === "") return true;
  if (label === 1 || label === true || label === "1") return true;
  if (label === 0 || label === false || label === "0") return false;
  return undefined;
}

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

type Parsed = CorpusEntry[] | string;

function fromJsonl(text: string, stem: string): Parsed {
  const entries: CorpusEntry[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim() === "") continue;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch (error) {
      return `line ${i + 1}: invalid JSON (${(error as Error).message})`;
    }
    const record = (typeof row === "object" && row !== null ? row : {}) as Record<string, unknown>;
    const body = str(record.text);
    if (!body) return `line ${i + 1}: no "text" string`;
    const attack = isAttack(record.label);
    if (attack === undefined) return `line ${i + 1}: label must be 0 or 1`;
    if (!attack) continue;
    const technique = str(record.technique);
    const lang = str(record.lang);
    entries.push({
      id: str(record.id) ?? `${stem}:${i + 1}`,
      text: body,
      ...(technique ? { technique } : {}),
      ...(lang ? { lang } : {}),
    });
  }
  return entries;
}

function fromCsv(text: string, stem: string): Parsed {
  const table = parseCsv(text);
  if ("error" in table) return table.error;
  const column = (name: string) => table.header.indexOf(name);
  const [textAt, labelAt, idAt, techniqueAt] = ["text", "label", "id", "technique"].map(column);
  if (textAt === undefined || textAt < 0) return 'no "text" column in the header row';
  const entries: CorpusEntry[] = [];
  for (const { line, cells } of table.rows) {
    const cell = (at: number | undefined) => (at === undefined || at < 0 ? undefined : cells[at]);
    const attack = isAttack(cell(labelAt)?.trim());
    if (attack === undefined) return `line ${line}: label must be 0 or 1`;
    const body = str(cell(textAt));
    if (!attack || !body) continue;
    const technique = str(cell(techniqueAt));
    entries.push({
      id: str(cell(idAt)) ?? `${stem}:${line}`,
      text: body,
      ...(technique ? { technique } : {}),
    });
  }
  return entries;
}

function fromText(text: string, stem: string): Parsed {
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ id: `${stem}:${i + 1}`, text: line.trim() }))
    .filter((entry) => entry.text !== "");
}

const READERS: Record<string, (text: string, stem: string) => Parsed> = {
  ".jsonl": fromJsonl,
  ".ndjson": fromJsonl,
  ".csv": fromCsv,
  ".txt": fromText,
};

/**
 * Reads one corpus file: CSV with a `text` column (and optional `label`, `id`, `technique`),
 * JSON Lines with a `text` field, or plain text with one attack a line. `where` names the
 * setting in errors, e.g. `guardrails.vector.corpora[0]`.
 */
export async function readCorpus(file: string, where = "corpus"): Promise<Corpus> {
  const fail = (problem: string) => new ConfigError(`${where}: ${file}: ${problem}`);
  const read = READERS[extname(file).toLowerCase()];
  if (!read) throw fail("unsupported corpus format; use .csv, .jsonl or .txt");
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw fail(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const parsed = read(bytes.toString("utf8"), basename(file, extname(file)));
  if (typeof parsed === "string") throw fail(parsed);
  if (parsed.length === 0) throw fail("holds no attacks (every row is empty or labelled 0)");
  return { file, sha256: createHash("sha256").update(bytes).digest("hex"), entries: parsed };
}
