import { stringify } from "yaml";
import type { Profile } from "../../config/profile.js";
import { needsEncoder } from "../../engine/compile.js";
import { compileConfig } from "../../engine/compile-config.js";
import { ConfigError, UsageError } from "../../errors.js";
import type { RegexSettings } from "../../guardrails/regex/settings.js";
import { GUARDRAIL_IDS } from "../../guardrails/types.js";
import { type CliContext, configDir, loadCliConfig, printJson } from "../context.js";
import { displayPath, list, table } from "../output.js";

const enabledGuardrails = (p: Profile) => GUARDRAIL_IDS.filter((id) => p.guardrails[id].enabled);

/**
 * The profile as the engine sees it: every guardrail, every default filled in (loading did that).
 * Settings are not parsed again: a schema's transforms do not accept their own output. Regex flags,
 * which parsing turns from `"im"` into a list, are shown as written, so the YAML printed is itself
 * a valid profile.
 */
function effective(profile: Profile) {
  const regex = profile.guardrails.regex as unknown as RegexSettings;
  const patterns = regex.patterns.map((p) => ({ ...p, flags: p.flags.join("") }));
  return {
    name: profile.name,
    ...(profile.description === undefined ? {} : { description: profile.description }),
    default: profile.isDefault,
    on_error: profile.onError,
    guardrails: { ...profile.guardrails, regex: { ...regex, patterns } },
  };
}

export async function runProfilesList(ctx: CliContext): Promise<number> {
  const config = await loadCliConfig(ctx);
  const profiles = [...config.profiles.values()];
  if (ctx.json) {
    const rows = profiles.map((p) => ({
      name: p.name,
      default: p.isDefault,
      enabled: enabledGuardrails(p),
      file: p.file,
    }));
    printJson(ctx, { profiles: rows });
    return 0;
  }
  const rows = profiles.map((p) => [
    p.name,
    p.isDefault ? "*" : "",
    list(enabledGuardrails(p)) || "(none)",
    displayPath(ctx.cwd, p.file),
  ]);
  ctx.io.stdout(table([["NAME", "DEFAULT", "ENABLED", "FILE"], ...rows]));
  return 0;
}

/** Shows one profile, or the default one when no name is given. */
export async function runProfilesShow(name: string | undefined, ctx: CliContext): Promise<number> {
  const config = await loadCliConfig(ctx);
  const profile = name === undefined ? config.defaultProfile : config.profiles.get(name);
  if (!profile) {
    const known = [...config.profiles.keys()].join(", ") || "none";
    throw new UsageError(
      name === undefined
        ? `no profile is marked default; name one (known: ${known})`
        : `unknown profile "${name}" (known: ${known})`,
    );
  }
  const settings = effective(profile);
  if (ctx.json) printJson(ctx, settings);
  else ctx.io.stdout(`# ${profile.file}\n${stringify(settings)}`);
  return 0;
}

/**
 * Loads and builds everything the server would (so a regex that RE2 rejects is caught here, not
 * at start-up) and reports every problem at once.
 */
export async function runProfilesValidate(ctx: CliContext): Promise<number> {
  let summary: { profiles: number; apps: number; keys: number };
  try {
    const config = await loadCliConfig(ctx);
    const registry = await ctx.registry();
    const models = [...config.profiles.values()].some((profile) => needsEncoder(profile, registry));
    await compileConfig(config, registry, models ? await ctx.encoder?.() : undefined);
    summary = { profiles: config.profiles.size, apps: config.apps.size, keys: config.keys.length };
  } catch (error) {
    if (!(error instanceof ConfigError) || !ctx.json) throw error;
    printJson(ctx, { valid: false, problems: error.problems });
    return 2;
  }
  const source = configDir(ctx) ?? "bundled profiles";
  if (ctx.json) printJson(ctx, { valid: true, source, ...summary });
  else {
    ctx.io.stdout(
      `valid: ${summary.profiles} profiles, ${summary.apps} apps, ${summary.keys} keys (${source})\n`,
    );
  }
  return 0;
}
