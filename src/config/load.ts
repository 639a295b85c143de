import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { ConfigError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { type AppRecord, appsFileSchema } from "./apps.js";
import { parseYamlLocated, readYamlLocated } from "./files.js";
import { formatIssues } from "./issues.js";
import { type KeyRecord, keysFileSchema } from "./keys.js";
import { type Profile, parseProfile } from "./profile.js";
import { nowhere } from "./yaml-locate.js";

/** Everything a config directory holds, validated and cross-checked. */
export interface Config {
  /** The directory read, or undefined when only the bundled profiles are in use. */
  readonly dir: string | undefined;
  readonly profiles: ReadonlyMap<string, Profile>;
  readonly defaultProfile: Profile | undefined;
  readonly apps: ReadonlyMap<string, AppRecord>;
  readonly keys: readonly KeyRecord[];
}

export function configPaths(dir: string) {
  return { profiles: join(dir, "profiles"), apps: join(dir, "apps.yaml"), keys: join(dir, "keys.yaml") };
}

/** The repo's `profiles/`: two levels up from both `src/config` and `dist/config`. */
export function bundledProfilesDir(): string {
  return fileURLToPath(new URL("../../profiles", import.meta.url));
}

/** `--config DIR`, else `GUARDRAIL_CONFIG`, else `./guardrail` when it exists, else none. */
export function resolveConfigDir(flag: string | undefined, env = process.env, cwd = process.cwd()) {
  const chosen = flag ?? env.GUARDRAIL_CONFIG;
  if (chosen) return resolve(cwd, chosen);
  const local = join(cwd, "guardrail");
  return existsSync(local) ? local : undefined;
}

/** The name a profile file claims, read before validation: its `name:` when a string, else its stem. */
function claimedName(raw: unknown, stem: string): string {
  const name = typeof raw === "object" && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" ? name : stem;
}

/**
 * Valid profiles by name. `broken` collects the names of profiles that failed validation, so
 * app bindings to them are not reported again as unknown profiles: the file's own problem is
 * the one to fix.
 */
async function loadProfiles(
  dir: string,
  registry: GuardrailRegistry,
  problems: string[],
  broken = new Set<string>(),
  overrides: ReadonlyMap<string, string> = new Map(),
) {
  let names: string[];
  try {
    names = (await readdir(dir))
      .filter((n) => [".yaml", ".yml"].includes(extname(n)) && !n.startsWith("."))
      .sort();
  } catch {
    problems.push(`${dir}: no profiles directory; run \`guardrail init\` to create one`);
    return new Map<string, Profile>();
  }
  const profiles = new Map<string, Profile>();
  for (const name of names) {
    const file = join(dir, name);
    const stem = basename(name, extname(name));
    const override = overrides.get(file);
    const read = override === undefined ? await readYamlLocated(file) : parseYamlLocated(file, override);
    const raw = read?.value;
    const result = parseProfile(raw, { file, stem, ...(read ? { locate: read.locate } : {}) }, registry);
    if ("problems" in result) {
      problems.push(...result.problems);
      broken.add(claimedName(raw, stem));
    } else if (profiles.has(result.name)) {
      problems.push(
        `${file}: name: profile "${result.name}" is already defined in ${profiles.get(result.name)?.file}`,
      );
    } else profiles.set(result.name, result);
  }
  const defaults = [...profiles.values()].filter((p) => p.isDefault);
  if (defaults.length > 1) {
    problems.push(
      `${dir}: default: ${defaults.map((p) => p.name).join(" and ")} are both marked default; keep default: true on one`,
    );
  }
  return profiles;
}

async function loadList<S extends z.ZodType>(file: string, schema: S, problems: string[]) {
  const read = await readYamlLocated(file);
  const locate = read?.locate ?? nowhere;
  const parsed = schema.safeParse(read?.value ?? {});
  if (parsed.success) return { data: parsed.data as z.output<S>, locate };
  problems.push(...formatIssues(file, parsed.error.issues, locate));
  return undefined;
}

/**
 * Reads and cross-checks a config directory; throws one ConfigError listing every problem.
 * `overrides` (profile file → YAML text) checks edits before they are written: the dashboard
 * refuses a save with the very messages a load of the saved files would give.
 */
export async function loadConfig(
  dir: string,
  registry: GuardrailRegistry,
  { overrides }: { overrides?: ReadonlyMap<string, string> } = {},
): Promise<Config> {
  const paths = configPaths(dir);
  const problems: string[] = [];
  const broken = new Set<string>();
  const profiles = await loadProfiles(paths.profiles, registry, problems, broken, overrides);
  const appsFile = await loadList(paths.apps, appsFileSchema, problems);
  const keysFile = await loadList(paths.keys, keysFileSchema, problems);

  const apps = new Map<string, AppRecord>();
  appsFile?.data.apps.forEach((app, i) => {
    const at = (field: string) => `${paths.apps}${appsFile.locate(["apps", i, field])}: apps[${i}].${field}`;
    if (apps.has(app.id)) problems.push(`${at("id")}: duplicate App ID; App IDs must be unique`);
    if (!profiles.has(app.profile) && !broken.has(app.profile)) {
      const known = [...profiles.keys()].join(", ") || "none";
      problems.push(`${at("profile")}: unknown profile "${app.profile}" (known: ${known})`);
    }
    apps.set(app.id, app);
  });
  const keyIds = new Set<string>();
  keysFile?.data.keys.forEach((key, i) => {
    if (keyIds.has(key.id)) {
      const at = keysFile.locate(["keys", i, "id"]);
      problems.push(`${paths.keys}${at}: keys[${i}].id: duplicate key id "${key.id}"`);
    }
    keyIds.add(key.id);
  });

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    dir,
    profiles,
    defaultProfile: [...profiles.values()].find((p) => p.isDefault),
    apps,
    keys: keysFile?.data.keys ?? [],
  };
}

/** With no config directory, `check` and `batch` use the repo's bundled profiles. */
export async function loadBundledConfig(registry: GuardrailRegistry): Promise<Config> {
  const problems: string[] = [];
  const profiles = await loadProfiles(bundledProfilesDir(), registry, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    dir: undefined,
    profiles,
    defaultProfile: [...profiles.values()].find((p) => p.isDefault),
    apps: new Map(),
    keys: [],
  };
}
