/**
 * The part file of a sharded run (`batch FILE --shard i/n --out part-i.jsonl`): JSON Lines whose
 * first line is a header saying what was scored and how, then one line per row exactly as `--out`
 * writes it (the row's result with its text and every guardrail's score), then a trailer that
 * proves the shard finished. `batch merge` reads only these files: no data set, no models.
 */
import type { GuardrailId } from "../guardrails/types.js";
import type { ColumnMap } from "./columns.js";
import type { RowRange, Shard } from "./shard.js";
import type { BatchSummary } from "./summary.js";

/** Bumped when a field's meaning changes; a merge refuses parts of another format. */
export const PART_FORMAT = 1;

/** The key that marks a header or trailer line; row lines never have it. */
export const PART_KEY = "guardrail_part";

export interface PartHeader {
  readonly [PART_KEY]: "header";
  readonly format: typeof PART_FORMAT;
  /** guardrail's version: another version may score differently. */
  readonly version: string;
  readonly shard: Shard;
  /** The shard's valid-row ordinals [from, to) within the data set. */
  readonly range: RowRange;
  readonly input: {
    /** As given on the command line, as the summary names it. */
    readonly file: string;
    /** SHA-256 of the data set's bytes: the identity the merge compares. */
    readonly sha256: string;
    /** Valid rows in the whole data set, and bad rows skipped (`--skip-invalid`). */
    readonly rows: number;
    readonly skipped: number;
  };
  readonly profile: {
    readonly name: string;
    /** SHA-256 of the profile's YAML: the same name with other settings is another profile. */
    readonly sha256: string;
    readonly file: string;
  };
  readonly config_dir: BatchSummary["config_dir"];
  readonly config_source: BatchSummary["config_source"];
  /** What decides which rows are valid and what the guardrails see: must match across parts. */
  readonly settings: {
    readonly mode: BatchSummary["mode"];
    readonly columns: ColumnMap;
    readonly max_message_chars: number;
    /** The enabled guardrails in the profile's order, with the profile's thresholds (null: none). */
    readonly guardrails: [GuardrailId, number | null][];
    readonly scored: GuardrailId[];
  };
  readonly concurrency: number;
}

export interface PartTrailer {
  readonly [PART_KEY]: "trailer";
  /** Rows written; the merge checks it against the range and the lines it read. */
  readonly rows: number;
  readonly elapsed_ms: number;
  readonly interrupted: boolean;
}

/** The JSON line of a header or trailer. */
export const partLine = (record: PartHeader | PartTrailer) => `${JSON.stringify(record)}\n`;
