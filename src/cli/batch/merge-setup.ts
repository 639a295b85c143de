import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { checkParts } from "../../eval/part-check.js";
import type { PartHeader } from "../../eval/part-file.js";
import { type PartEnds, readPartEnds } from "../../eval/part-reader.js";
import { sha256File } from "../../eval/sha256-file.js";
import type { MergeOptions } from "../commands/batch-merge.js";
import { type CliContext, loadCliConfig } from "../context.js";
import { selectProfile } from "../select-profile.js";
import type { FinishSetup } from "./finish.js";
import { requireLabels, setUpOutcome, writeGuardrailsOf } from "./outcome-setup.js";
import { requireWritable } from "./outputs.js";

/** A merge checked before any row is read: the parts belong together, the outputs can be written. */
export interface MergeSetup extends FinishSetup {
  readonly options: MergeOptions;
  /** In shard order, which is the data set's row order. */
  readonly parts: readonly PartEnds[];
  /** The first part's header: every part's agrees on what matters (see checkParts). */
  readonly header: PartHeader;
}

async function readPart(cwd: string, given: string): Promise<PartEnds> {
  const file = resolve(cwd, given);
  const stats = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === "ENOENT" ? `${given}: no such file` : `${given}: cannot read: ${error.message}`,
    );
  });
  if (stats.isDirectory()) throw new UsageError(`${given} is a directory; pass the part files`);
  return readPartEnds(file, given);
}

/**
 * `--write-profile` writes into the profile the shards ran, found by name in this config: refused
 * when its YAML is not byte for byte the one they ran (thresholds tuned on another profile's scores).
 */
async function profileToWrite(ctx: CliContext, header: PartHeader): Promise<string> {
  const config = await loadCliConfig(ctx);
  if (config.dir === undefined)
    throw new UsageError(
      "--write-profile needs a config directory (the bundled profiles are read-only): pass --config DIR",
    );
  const { file } = selectProfile(config, { profile: header.profile.name }).profile;
  if ((await sha256File(file)) !== header.profile.sha256)
    throw new UsageError(
      `--write-profile: ${file} is not the profile the shards ran (its content differs from sha256 ${header.profile.sha256.slice(0, 12)}…); score the data set again with it`,
    );
  await requireWritable("--write-profile", file, file, true);
  return file;
}

export async function setUpMerge(options: MergeOptions, ctx: CliContext): Promise<MergeSetup> {
  const outcome = await setUpOutcome(options, ctx.cwd, undefined);
  const given = new Map(options.parts.map((p) => [resolve(ctx.cwd, p), p]));
  for (const [flag, file] of Object.entries(outcome.outputs))
    if (given.has(file))
      throw new UsageError(`--${flag} ${given.get(file)} is one of the parts; write it elsewhere`);
  const parts = checkParts(await Promise.all(options.parts.map((p) => readPart(ctx.cwd, p))));
  const header = (parts[0] as PartEnds).header;
  requireLabels(outcome, header.settings.columns.label !== undefined, header.input.file);
  if (options.writeProfile && header.compare)
    throw new UsageError(
      "--write-profile and parts scored with --compare: a run writes one profile's thresholds; score the shards without --compare to write them",
    );
  const writeOnly = writeGuardrailsOf(options, await ctx.registry());
  const file = options.writeProfile ? await profileToWrite(ctx, header) : header.profile.file;
  return { ...outcome, writeOnly, options, parts, header, profile: { file }, total: header.input.rows };
}
