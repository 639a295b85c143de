import type { Profile } from "../config/profile.js";
import { type CompiledProfile, compileProfile, needsEncoder } from "../engine/compile.js";
import { createEngine, type Engine } from "../engine/engine.js";
import { ConfigError } from "../errors.js";
import { type CliContext, loadCliConfig } from "./context.js";
import { type ProfileChoice, selectProfile } from "./select-profile.js";

/** The profile a command runs, compiled, and an engine to run it on this thread. */
export interface SelectedProfile {
  readonly profile: Profile;
  /** The app's name when the profile was chosen with --app. */
  readonly app?: string;
  readonly compiled: CompiledProfile;
  readonly engine: Engine;
}

/**
 * Selects the profile as the server would and compiles it, loading the sentence encoder only when
 * the profile needs it. A profile that loads but does not compile (a regex RE2 rejects, an index
 * that cannot be built) is a config error naming its file.
 */
export async function compileSelected(ctx: CliContext, choice: ProfileChoice): Promise<SelectedProfile> {
  const registry = await ctx.registry();
  const { profile, app } = selectProfile(await loadCliConfig(ctx), choice);
  const encoder = needsEncoder(profile, registry) ? await ctx.encoder?.() : undefined;
  let compiled: CompiledProfile;
  try {
    compiled = await compileProfile(profile, registry, encoder);
  } catch (error) {
    throw new ConfigError(`${profile.file}: ${(error as Error).message}`);
  }
  const engine = createEngine({ registry, ...(encoder ? { encoder } : {}) });
  return { profile, ...(app ? { app } : {}), compiled, engine };
}
