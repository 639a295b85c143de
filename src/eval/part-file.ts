/**
 * The part file of a sharded run (`batch FILE --shard i/n --out part-i.jsonl`): JSON Lines whose
 * first line is a header saying what was scored and how, then one line per row exactly as `--out`
 * writes it (the row's result with its text and every guardrail's score), then a trailer that
 * proves the shard finished. `batch merge` reads only these files: no data set, no models.
 */
import { z } from "zod";
import { GUARDRAIL_IDS } from "../guardrails/types.js";

/** Bumped when a field's meaning changes; a merge refuses parts of another format. */
export const PART_FORMAT = 1;

/** The key that marks a header or trailer line; row lines never have it. */
export const PART_KEY = "guardrail_part";

const count = z.number().int().min(0);
const id = z.enum(GUARDRAIL_IDS);

export const partHeaderSchema = z.object({
  [PART_KEY]: z.literal("header"),
  format: z.literal(PART_FORMAT),
  /** guardrail's version: another version may score differently. */
  version: z.string(),
  shard: z.object({ index: count, count: z.number().int().min(1) }),
  /** The shard's valid-row ordinals [from, to) within the data set. */
  range: z.object({ from: count, to: count }),
  input: z.object({
    /** As given on the command line, as the summary names it. */
    file: z.string(),
    /** SHA-256 of the data set's bytes: the identity the merge compares. */
    sha256: z.string(),
    /** Valid rows in the whole data set, and bad rows skipped (`--skip-invalid`). */
    rows: count,
    skipped: count,
  }),
  profile: z.object({
    name: z.string(),
    /** SHA-256 of the profile's YAML: the same name with other settings is another profile. */
    sha256: z.string(),
    file: z.string(),
  }),
  /** `--compare`: the second profile, identified as the first, and the guardrails it runs. */
  compare: z
    .object({ name: z.string(), sha256: z.string(), file: z.string(), guardrails: z.array(id) })
    .optional(),
  config_dir: z.string().nullable(),
  config_source: z.enum(["flag", "env", "cwd", "bundled"]),
  /** What decides which rows are valid and what the guardrails see: must match across parts. */
  settings: z.object({
    mode: z.enum(["input", "output"]),
    columns: z.object({
      text: z.string(),
      label: z.string().optional(),
      prompt: z.string().optional(),
      category: z.string().optional(),
      id: z.string().optional(),
    }),
    max_message_chars: z.number().int().min(1),
    /** The enabled guardrails in the profile's order, with the profile's thresholds (null: none). */
    guardrails: z.array(z.tuple([id, z.number().nullable()])),
    scored: z.array(id),
  }),
  concurrency: count,
});

export const partTrailerSchema = z.object({
  [PART_KEY]: z.literal("trailer"),
  /** Rows written; the merge checks it against the range and the lines it read. */
  rows: count,
  elapsed_ms: z.number().min(0),
  interrupted: z.boolean(),
});

export type PartHeader = z.infer<typeof partHeaderSchema>;
export type PartTrailer = z.infer<typeof partTrailerSchema>;

/** The JSON line of a header or trailer. */
export const partLine = (record: PartHeader | PartTrailer) => `${JSON.stringify(record)}\n`;
