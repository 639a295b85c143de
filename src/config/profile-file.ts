import { basename, extname } from "node:path";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { readYaml } from "./files.js";
import { type Profile, parseProfile } from "./profile.js";

/** One profile YAML file on its own, outside any config directory; problems name the file and field. */
export async function loadProfileFile(file: string, registry: GuardrailRegistry): Promise<Profile> {
  const raw = await readYaml(file);
  if (raw === undefined) throw new ConfigError(`${file}: no such profile file`);
  const result = parseProfile(raw, { file, stem: basename(file, extname(file)) }, registry);
  if ("problems" in result) throw new ConfigError(result.problems);
  return result;
}
