import { resolve } from "node:path";
import type { Config } from "../../config/load.js";
import type { Profile } from "../../config/profile.js";
import { UsageError } from "../../errors.js";
import type { Baseline } from "../../eval/baseline.js";
import { describeMissingLabels } from "../../eval/columns.js";
import type { Gate } from "../../eval/gates.js";
import { readTable } from "../../eval/readers/index.js";
import { sha256File } from "../../eval/sha256-file.js";
import type { Target } from "../../eval/sweep.js";
import { describeInvalid, requireValid, type Validation, validateTable } from "../../eval/validate.js";
import { appliesIn } from "../../guardrails/applies-to.js";
import { scoredGuardrails } from "../../guardrails/lists.js";
import type { GuardrailRegistry } from "../../guardrails/registry.js";
import type { GuardrailId } from "../../guardrails/types.js";
import { DEFAULT_MESSAGE_CHARS } from "../../text/length.js";
import type { BatchOptions } from "../commands/batch.js";
import { type CliContext, loadCliConfig } from "../context.js";
import { selectProfile } from "../select-profile.js";
import { type BatchInput, openInput } from "./input.js";
import { requireLabels, setUpOutcome, writeGuardrailsOf } from "./outcome-setup.js";
import { type BatchOutputs, requireWritable } from "./outputs.js";
import { checkShardFlags, planShard, type ShardPlan } from "./shard-setup.js";

/** Everything a run needs, checked before any row is evaluated: a mistake fails in a second. */
export interface BatchSetup {
  readonly options: BatchOptions;
  readonly target: Target | undefined;
  readonly gates: readonly Gate[];
  readonly baseline: Baseline | undefined;
  readonly outputs: BatchOutputs;
  readonly profile: Profile;
  /** The guardrails the profile runs in this mode, with their thresholds (null: none). */
  readonly enabled: ReadonlyMap<GuardrailId, number | null>;
  /** The guardrails whose scores are graded: the run draws curves and sweeps for these. */
  readonly scored: readonly GuardrailId[];
  readonly maxChars: number;
  /** Open until `input.cleanup()`, which the caller owes once setup has returned. */
  readonly input: BatchInput;
  readonly validation: Validation;
  /** SHA-256 of the data set's bytes, recorded in the summary for `--baseline` comparisons. */
  readonly dataSha256: string;
  /** `--write-guardrails`: the only guardrails whose thresholds --write-profile writes. */
  readonly writeOnly?: readonly GuardrailId[];
  /** `--compare`: the second profile, and the guardrails it runs in this mode. */
  readonly compare?: { readonly profile: Profile; readonly enabled: ReadonlyMap<GuardrailId, number | null> };
  /** `--shard i/n`: the rows this run scores, written with a part header and trailer to --out. */
  readonly shard?: ShardPlan;
}

function enabledIn(profile: Profile, registry: GuardrailRegistry, options: BatchOptions) {
  const enabled = new Map<GuardrailId, number | null>();
  for (const [id, settings] of Object.entries(profile.guardrails) as [
    GuardrailId,
    Record<string, unknown>,
  ][]) {
    if (settings.enabled && appliesIn(registry[id], settings, options.mode)) {
      enabled.set(id, typeof settings.threshold === "number" ? settings.threshold : null);
    }
  }
  return enabled;
}

/** The first pass over the data set: its columns and its bad rows, before any guardrail runs. */
async function validateInput(input: BatchInput, options: BatchOptions, maxChars: number, ctx: CliContext) {
  const columnOptions = {
    ...(options.textColumn ? { textColumn: options.textColumn } : {}),
    ...(options.labelColumn ? { labelColumn: options.labelColumn } : {}),
    ...(options.promptColumn ? { promptColumn: options.promptColumn } : {}),
    ...(options.categoryColumn ? { categoryColumn: options.categoryColumn } : {}),
  };
  const table = readTable(input.file, input.format);
  const validation = await validateTable(table, columnOptions, options.mode, maxChars).catch(
    (error: unknown) => {
      // Say which file: "the file is empty", "cannot tell which column holds the prompts", ...
      throw error instanceof UsageError ? new UsageError(`${input.name}: ${error.message}`) : error;
    },
  );
  requireValid(validation, input.name, options.skipInvalid === true);
  if (validation.invalidCount > 0 && !ctx.json && !options.quiet) {
    ctx.io.stderr(`warning: skipping ${describeInvalid(validation, input.name)}\n`);
  }
  const unlabelled = describeMissingLabels(validation.header, validation.columns);
  if (unlabelled && !ctx.json && !options.quiet) ctx.io.stderr(`note: ${input.name}: ${unlabelled}\n`);
  return validation;
}

/**
 * `--compare`'s profile, resolved as `--profile` is. Refused: the profile already evaluated, and
 * `--write-profile`, which writes one profile's thresholds where this run judges two (run it
 * again without --compare to write the one you chose).
 */
function compareOf(config: Config, profile: Profile, options: BatchOptions): Profile | undefined {
  if (options.compare === undefined) return undefined;
  if (options.writeProfile)
    throw new UsageError(
      "--write-profile and --compare: a run writes one profile's thresholds; compare first, then run --write-profile without --compare",
    );
  let other: Profile;
  try {
    other = selectProfile(config, { profile: options.compare }).profile;
  } catch (error) {
    throw error instanceof UsageError ? new UsageError(`--compare: ${error.message}`) : error;
  }
  if (other.name === profile.name)
    throw new UsageError(
      `--compare ${options.compare}: that is the profile already being evaluated; name a different profile to compare with`,
    );
  return other;
}

/** Checks the flags, the files to write, the profile and the data set, in that order. */
export async function setUpBatch(options: BatchOptions, ctx: CliContext): Promise<BatchSetup> {
  checkShardFlags(options);
  const input = options.file === "-" ? undefined : resolve(ctx.cwd, options.file);
  const { target, gates, baseline, outputs } = await setUpOutcome(options, ctx.cwd, input);

  const registry = await ctx.registry();
  const config = await loadCliConfig(ctx);
  const { profile } = selectProfile(config, options);
  const writeOnly = writeGuardrailsOf(options, registry);
  if (options.writeProfile) {
    if (config.dir === undefined) {
      throw new UsageError(
        "--write-profile needs a config directory (the bundled profiles are read-only): pass --config DIR, or create one with `guardrail init`",
      );
    }
    // Written atomically (a new file renamed over it): the profile's directory must take files.
    await requireWritable("--write-profile", profile.file, profile.file, true);
  }
  const enabled = enabledIn(profile, registry, options);
  const scored = scoredGuardrails(registry);
  const other = compareOf(config, profile, options);
  const compare = other && { profile: other, enabled: enabledIn(other, registry, options) };

  const opened = await openInput(options.file, options.format, ctx);
  try {
    const maxChars = options.maxMessageChars ?? DEFAULT_MESSAGE_CHARS;
    // The hash reads the file beside the validation pass, from the same page cache.
    const [validation, dataSha256] = await Promise.all([
      validateInput(opened, options, maxChars, ctx),
      sha256File(opened.file),
    ]);
    requireLabels({ target, gates, baseline, outputs }, validation.columns.label !== undefined, opened.name);
    const setup = {
      options,
      target,
      gates,
      baseline,
      outputs,
      profile,
      enabled,
      scored,
      maxChars,
      writeOnly,
      ...(compare ? { compare } : {}),
    };
    const shard =
      options.shard && (await planShard(options.shard, validation.total, profile, compare?.profile));
    return { ...setup, input: opened, validation, dataSha256, ...(shard ? { shard } : {}) };
  } catch (error) {
    await opened.cleanup();
    throw error;
  }
}

/** The rows this run scores: the shard's share, or every valid row. */
export const rowsToRun = (setup: Pick<BatchSetup, "shard" | "validation">) =>
  setup.shard ? setup.shard.range.to - setup.shard.range.from : setup.validation.total;
