import { basename, extname } from "node:path";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { readYamlLocated } from "./files.js";
import { type Profile, parseProfile } from "./profile.js";

/** One profile YAML file on its own, outside any config directory; problems name the file and field. */
export async function loadProfileFile(file: string, registry: GuardrailRegistry): Promise<Profile> {
  const read = await readYamlLocated(file);
  if (read === undefined) throw new ConfigError(`${file}: no such profile file`);
  const result = parseProfile(
    read.value,
    { file, stem: basename(file, extname(file)), locate: read.locate },
    registry,
  );
  if ("problems" in result) throw new ConfigError(result.problems);
  return result;
}
