import { isAbsolute, resolve } from "node:path";
import { type Config, loadBundledConfig, loadConfig } from "../config/load.js";
import type { Profile } from "../config/profile.js";
import { loadProfileFile } from "../config/profile-file.js";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";

export interface ProfileSource {
  /** A profile's name (bundled, or in `config`), or the path of a profile YAML file. */
  readonly profile?: string;
  /** A config directory (profiles/, apps.yaml, keys.yaml); without it, the bundled profiles. */
  readonly config?: string;
}

/** A path rather than a name: profile names hold no slashes and no YAML extension. */
const isPath = (profile: string) => /[/\\]/.test(profile) || /\.ya?ml$/i.test(profile) || isAbsolute(profile);

function pick(config: Config, name: string | undefined): Profile {
  const where = config.dir ?? "bundled profiles";
  if (name === undefined) {
    if (config.defaultProfile) return config.defaultProfile;
    throw new ConfigError(`${where}: no profile is marked default: true; mark one, or pass a profile name`);
  }
  const profile = config.profiles.get(name);
  if (profile) return profile;
  const known = [...config.profiles.keys()].join(", ") || "none";
  throw new ConfigError(`${where}: unknown profile "${name}" (known: ${known})`);
}

/**
 * The profile `createGuardrail` runs: a YAML file when `profile` is a path (relative to `cwd`),
 * else a named profile (default: the default one) of the config directory or the bundled set.
 * Unlike the CLI, GUARDRAIL_CONFIG and ./guardrail are not consulted: a library reads what it is given.
 */
export async function selectProfile(
  source: ProfileSource,
  registry: GuardrailRegistry,
  cwd = process.cwd(),
): Promise<Profile> {
  if (source.profile !== undefined && isPath(source.profile)) {
    return loadProfileFile(resolve(cwd, source.profile), registry);
  }
  const config =
    source.config === undefined
      ? await loadBundledConfig(registry)
      : await loadConfig(resolve(cwd, source.config), registry);
  return pick(config, source.profile);
}
