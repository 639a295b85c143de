import type { Context } from "hono";
import { type Config, loadConfig } from "../../../config/load.js";
import { ConfigError, UsageError } from "../../../errors.js";
import { sessionOf } from "../guard.js";
import { type Html, notice } from "../html.js";
import type { DashboardDeps, DashboardEnv } from "../section.js";
import type { Flash } from "../sessions.js";

/** The config as the CLI would read it now, or the problems that stop it loading. */
export async function readConfig(deps: DashboardDeps): Promise<{ config?: Config; problems?: string[] }> {
  try {
    return { config: await loadConfig(deps.configDir, deps.registry) };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: [...error.problems] };
    throw error;
  }
}

/** A refusal the store or the dashboard explains in words (unknown id, invalid result); anything else is a bug. */
export function refusalLines(error: unknown): string[] {
  if (error instanceof ConfigError) return [...error.problems];
  if (error instanceof UsageError) return [error.message];
  throw error;
}

/** Leaves a notice (and maybe a new key) for the next page of this session: post, redirect, get. */
export function leaveFlash(c: Context<DashboardEnv>, flash: Flash): void {
  sessionOf(c).flash = flash;
}

/** Takes what the last change left: shown on this page, then gone. */
export function takeFlash(c: Context<DashboardEnv>): Flash | undefined {
  const session = sessionOf(c);
  const flash = session.flash;
  delete session.flash;
  return flash;
}

export const configProblems = (problems: readonly string[]): Html =>
  notice("error", [
    "The config directory does not load; fix it (the problems below) and reload.",
    ...problems,
  ]);

/** A form field's text, trimmed; "" when absent or a file. */
export async function field(c: Context<DashboardEnv>, name: string): Promise<string> {
  const value = (await c.req.parseBody())[name];
  return typeof value === "string" ? value.trim() : "";
}

/** `2026-11-27T20:46:42.123Z` as `2026-11-27 20:46 UTC`; anything else as written. */
export const shortTime = (iso: string) =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
