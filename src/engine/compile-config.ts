import type { Config } from "../config/load.js";
import type { Profile } from "../config/profile.js";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import { type CompiledProfile, compileProfile } from "./compile.js";

/** A config with every profile compiled: what the server and the CLI resolve requests against. */
export interface CompiledConfig {
  readonly config: Config;
  readonly profiles: ReadonlyMap<string, CompiledProfile>;
  readonly defaultProfile: CompiledProfile | undefined;
}

export async function compileConfig(
  config: Config,
  registry: GuardrailRegistry,
  encoder?: Encoder,
): Promise<CompiledConfig> {
  const profiles = await compileProfiles(config.profiles, registry, encoder);
  const defaultName = config.defaultProfile?.name;
  return { config, profiles, defaultProfile: defaultName ? profiles.get(defaultName) : undefined };
}

/** Every profile compiled, by name; one ConfigError naming each profile that fails. */
export async function compileProfiles(
  sources: ReadonlyMap<string, Profile>,
  registry: GuardrailRegistry,
  encoder?: Encoder,
): Promise<Map<string, CompiledProfile>> {
  const profiles = new Map<string, CompiledProfile>();
  const problems: string[] = [];
  for (const [name, profile] of sources) {
    try {
      profiles.set(name, await compileProfile(profile, registry, encoder));
    } catch (error) {
      problems.push(`${profile.file}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return profiles;
}
