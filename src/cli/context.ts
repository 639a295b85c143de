import { type Config, loadBundledConfig, loadConfig, resolveConfigDir } from "../config/load.js";
import type { ConfigOrigin } from "../config/origin.js";
import { UsageError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import type { Precision } from "../models/use-lite/precision.js";
import type { Io } from "./io.js";
import { displayPath } from "./output.js";

/** What every command gets: the global flags, the environment, and how to reach the outside. */
export interface CliContext {
  readonly io: Io;
  readonly json: boolean;
  /** The `--config` flag as given, before GUARDRAIL_CONFIG and ./guardrail are considered. */
  readonly configFlag: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Loaded on demand: the guardrails pull in the heavier dependencies (RE2, phone metadata). */
  readonly registry: () => Promise<GuardrailRegistry>;
  /**
   * The shared sentence encoder, created on first request (model-backed guardrails only): at
   * GUARDRAIL_ENCODER_PRECISION's precision, or at the one asked for.
   */
  readonly encoder?: (precision?: Precision) => Promise<Encoder>;
}

export function configDir(ctx: CliContext): string | undefined {
  return resolveConfigDir(ctx.configFlag, ctx.env, ctx.cwd);
}

/** Which config directory `configDir` picks and why, as the summaries show it. */
export function configOrigin(ctx: CliContext): ConfigOrigin {
  const dir = configDir(ctx);
  if (dir === undefined) return { config_dir: null, config_source: "bundled" };
  // The same order as resolveConfigDir: the flag, then the variable, then ./guardrail.
  const chosen = ctx.configFlag ?? ctx.env.GUARDRAIL_CONFIG;
  const source = chosen ? (ctx.configFlag !== undefined ? "flag" : "env") : "cwd";
  return { config_dir: displayPath(ctx.cwd, dir), config_source: source };
}

/** Commands that manage keys, apps or a server cannot fall back to the bundled profiles. */
export function requireConfigDir(ctx: CliContext, command: string): string {
  const dir = configDir(ctx);
  if (dir) return dir;
  throw new UsageError(
    `${command} needs a config directory: pass --config DIR, set GUARDRAIL_CONFIG, or create ./guardrail ` +
      "with `npx guardrail init` (then `npx guardrail keys create`)",
  );
}

/** The config directory when there is one, else the bundled profiles. */
export async function loadCliConfig(ctx: CliContext): Promise<Config> {
  const registry = await ctx.registry();
  const dir = configDir(ctx);
  return dir ? loadConfig(dir, registry) : loadBundledConfig(registry);
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.io.stdout(`${JSON.stringify(value)}\n`);
}
