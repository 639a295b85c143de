import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { generateKey } from "../../src/config/keys.js";

export interface BenchConfig {
  readonly dir: string;
  /** The organization API key, in clear (keys.yaml holds only its SHA-256). */
  readonly key: string;
  /** Profile name → the App ID bound to it. */
  readonly apps: Readonly<Record<string, string>>;
}

/**
 * Writes a config directory as `guardrail serve --config DIR` reads it: `profiles/<name>.yaml` for
 * each profile (the first one is the default), an app bound to each, and one API key stored as its
 * SHA-256 hash, as `guardrail keys create` would.
 */
export async function writeConfigDir(dir: string, profiles: Record<string, object>): Promise<BenchConfig> {
  await mkdir(join(dir, "profiles"), { recursive: true });
  const names = Object.keys(profiles);
  for (const [index, name] of names.entries()) {
    const profile = { name, ...(index === 0 ? { default: true } : {}), ...profiles[name] };
    await writeFile(join(dir, "profiles", `${name}.yaml`), stringify(profile));
  }
  // App IDs need only look like one: `app_` then letters, digits or underscores.
  const apps = Object.fromEntries(names.map((name) => [name, `app_bench_${name.replace(/\W/g, "_")}_0001`]));
  await writeFile(
    join(dir, "apps.yaml"),
    stringify({ apps: names.map((name) => ({ name: `bench ${name}`, id: apps[name], profile: name })) }),
  );
  const { key, record } = generateKey();
  await writeFile(
    join(dir, "keys.yaml"),
    stringify({ keys: [{ ...record, label: "bench", created: new Date().toISOString() }] }),
  );
  return { dir, key, apps };
}

/** The headers of an authenticated JSON check request for `profile`'s app. */
export function checkHeaders(config: BenchConfig, profile: string): Record<string, string> {
  const appId = config.apps[profile];
  if (appId === undefined) throw new Error(`no app for profile ${profile}`);
  return { "content-type": "application/json", "x-api-key": config.key, "x-app-id": appId };
}
