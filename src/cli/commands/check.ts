import type { Config } from "../../config/load.js";
import type { Profile } from "../../config/profile.js";
import { compileProfile, needsEncoder } from "../../engine/compile.js";
import { createEngine } from "../../engine/engine.js";
import { ConfigError, UsageError } from "../../errors.js";
import { renderVerdict } from "../check-format.js";
import { type CliContext, loadCliConfig, printJson } from "../context.js";
import { paint } from "../output.js";

export interface CheckOptions {
  readonly text?: string;
  /** Run output-check (a model response) instead of input-check (a user prompt). */
  readonly output?: boolean;
  readonly prompt?: string;
  readonly profile?: string;
  readonly app?: string;
}

/** TEXT, or all of stdin when TEXT is absent or `-`, minus the one newline `echo` adds. */
async function readMessage(text: string | undefined, ctx: CliContext): Promise<string> {
  if (text !== undefined && text !== "-") return text;
  if (ctx.io.stdinIsTTY) {
    throw new UsageError(
      'no text to check: pass it as an argument (guardrail check "...") or pipe it on stdin',
    );
  }
  return (await ctx.io.readStdin()).replace(/\r?\n$/, "");
}

/** The same resolution as the server: an app's profile, a named profile, else the default one. */
function selectProfile(config: Config, options: CheckOptions): { profile: Profile; app?: string } {
  if (options.app !== undefined) {
    if (config.dir === undefined) {
      throw new UsageError("--app needs a config directory: pass --config DIR or set GUARDRAIL_CONFIG");
    }
    const app = config.apps.get(options.app);
    if (!app) {
      const known = [...config.apps.values()].map((a) => a.name).join(", ") || "none";
      throw new UsageError(
        `unknown App ID "${options.app}" (apps: ${known}); see \`guardrail apps list --reveal\``,
      );
    }
    return { profile: config.profiles.get(app.profile) as Profile, app: app.name };
  }
  if (options.profile !== undefined) {
    const profile = config.profiles.get(options.profile);
    if (profile) return { profile };
    throw new UsageError(
      `unknown profile "${options.profile}" (known: ${[...config.profiles.keys()].join(", ") || "none"})`,
    );
  }
  if (config.defaultProfile) return { profile: config.defaultProfile };
  throw new ConfigError(
    `${config.dir}: no profile is marked default: true; mark one, or pass --profile NAME or --app APP_ID`,
  );
}

/** Checks one text. Resolves to 0 when allowed and 1 when flagged, so shell gates can use it. */
export async function runCheck(options: CheckOptions, ctx: CliContext): Promise<number> {
  if (options.prompt !== undefined && !options.output) {
    throw new UsageError("--prompt only applies to output checks: add --output");
  }
  if (options.profile !== undefined && options.app !== undefined) {
    throw new UsageError("pass --profile or --app, not both");
  }
  const message = await readMessage(options.text, ctx);
  const registry = await ctx.registry();
  const config = await loadCliConfig(ctx);
  const { profile, app } = selectProfile(config, options);
  const encoder = needsEncoder(profile, registry) ? await ctx.encoder?.() : undefined;
  let compiled: Awaited<ReturnType<typeof compileProfile>>;
  try {
    compiled = await compileProfile(profile, registry, encoder);
  } catch (error) {
    throw new ConfigError(`${profile.file}: ${(error as Error).message}`);
  }

  const mode = options.output ? "output" : "input";
  const outcome = await createEngine({ registry, ...(encoder ? { encoder } : {}) }).check(
    mode,
    message,
    compiled,
    options.prompt,
  );
  if (ctx.json) {
    // The body has no place for errors (the spec's shape); say so beside it.
    for (const failure of outcome.failures) {
      ctx.io.stderr(`warning: guardrail ${failure.guardrail} failed: ${failure.error.message}\n`);
    }
    printJson(ctx, outcome.body);
  } else {
    const where = { mode, profile: profile.name, onError: profile.onError, ...(app ? { app } : {}) } as const;
    ctx.io.stdout(renderVerdict(outcome.body, outcome.failures, where, paint(ctx.io.color)));
  }
  return outcome.body.injection_detected ? 1 : 0;
}
