import { readdir } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { parseYaml } from "../../../config/files.js";
import { configPaths } from "../../../config/load.js";
import { parseProfile } from "../../../config/profile.js";
import { type ProfileText, readProfileText } from "../../../config/profile-save.js";
import { ConfigError } from "../../../errors.js";
import type { GuardrailRegistry } from "../../../guardrails/registry.js";

/** A profile file as the dashboard shows it: read even when it does not validate, so it can be fixed. */
export interface ProfileEntry extends ProfileText {
  readonly name: string;
  readonly isDefault: boolean;
  /** The parsed YAML document; undefined when it is not valid YAML (then `problems` say why). */
  readonly raw: Record<string, unknown> | undefined;
  readonly problems: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads one profile file; with `registry`, its schema problems too (as the loader words them). */
export async function readProfileEntry(file: string, registry?: GuardrailRegistry): Promise<ProfileEntry> {
  const read = await readProfileText(file);
  let raw: Record<string, unknown> | undefined;
  let problems: readonly string[] = [];
  try {
    const parsed = parseYaml(file, read.text) ?? {};
    raw = isRecord(parsed) ? parsed : undefined;
    if (!raw) problems = [`${file}: (top level): expected a mapping`];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems = error.problems;
  }
  const stem = basename(file, extname(file));
  if (raw && registry) {
    const parsed = parseProfile(raw, { file, stem }, registry);
    if ("problems" in parsed) problems = parsed.problems;
  }
  const name = typeof raw?.name === "string" ? raw.name : stem;
  return { ...read, name, isDefault: raw?.default === true, raw, problems };
}

/** Every profile file of the config directory, in the loader's order (sorted file names). */
export async function listProfiles(configDir: string, registry?: GuardrailRegistry): Promise<ProfileEntry[]> {
  const dir = configPaths(configDir).profiles;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files = names
    .filter((n) => [".yaml", ".yml"].includes(extname(n)) && !n.startsWith("."))
    .sort()
    .map((n) => join(dir, n));
  return Promise.all(files.map((file) => readProfileEntry(file, registry)));
}
