import type { Config } from "../config/load.js";
import type { Profile } from "../config/profile.js";
import { type CompiledProfile, compileProfile, needsEncoder } from "../engine/compile.js";
import { createEngine, type MultiProfileEngine } from "../engine/engine.js";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import { type CliContext, loadCliConfig } from "./context.js";
import { type ProfileChoice, selectProfile } from "./select-profile.js";

/** The profile a command runs, compiled, and an engine to run it on this thread. */
export interface SelectedProfile {
  readonly profile: Profile;
  /** The app's name when the profile was chosen with --app. */
  readonly app?: string;
  readonly compiled: CompiledProfile;
  /** With `compare`: that profile, compiled with the same encoder, for `engine.checkEach`. */
  readonly compared?: CompiledProfile;
  readonly engine: MultiProfileEngine;
}

/** A profile that loads but does not compile (a regex RE2 rejects, an index that cannot be built) is a config error naming its file. */
async function compile(profile: Profile, registry: GuardrailRegistry, encoder: Encoder | undefined) {
  try {
    return await compileProfile(profile, registry, encoder);
  } catch (error) {
    throw new ConfigError(`${profile.file}: ${(error as Error).message}`);
  }
}

/**
 * Selects the profile as the server would and compiles it, with the `compare` one when given,
 * making the sentence encoder (`encoderFor`) only when one of them needs it. The batch worker
 * threads call this with their own encoder; commands on this thread call compileSelected.
 */
export async function compileChosen(
  config: Config,
  registry: GuardrailRegistry,
  choice: ProfileChoice & { readonly compare?: string },
  encoderFor: () => Promise<Encoder | undefined>,
): Promise<SelectedProfile> {
  const { profile, app } = selectProfile(config, choice);
  const other = choice.compare === undefined ? undefined : selectProfile(config, { profile: choice.compare });
  const wanted = [profile, other?.profile].some((p) => p !== undefined && needsEncoder(p, registry));
  const encoder = wanted ? await encoderFor() : undefined;
  const compiled = await compile(profile, registry, encoder);
  const compared = other ? await compile(other.profile, registry, encoder) : undefined;
  const engine = createEngine({ registry, ...(encoder ? { encoder } : {}) });
  return { profile, ...(app ? { app } : {}), compiled, ...(compared ? { compared } : {}), engine };
}

/** compileChosen with this command's config and its shared encoder. */
export async function compileSelected(
  ctx: CliContext,
  choice: ProfileChoice & { readonly compare?: string },
): Promise<SelectedProfile> {
  const registry = await ctx.registry();
  return compileChosen(await loadCliConfig(ctx), registry, choice, async () => ctx.encoder?.());
}
