import { type AppRecord, maskAppId } from "../../config/apps.js";
import { loadConfig } from "../../config/load.js";
import { bindApp, createApp, deleteApp } from "../../config/store.js";
import type { AppsListOptions } from "../commands/apps.js";
import { type CliContext, printJson, requireConfigDir } from "../context.js";
import { table } from "../output.js";

async function store(ctx: CliContext, command: string) {
  return { dir: requireConfigDir(ctx, command), options: { registry: await ctx.registry() } };
}

const view = (app: AppRecord, reveal: boolean) => ({
  name: app.name,
  id: reveal ? app.id : maskAppId(app.id),
  profile: app.profile,
  ...(app.created ? { created: app.created } : {}),
});

/** A new app gets a generated App ID, shown in full once here (and later with `apps list --reveal`). */
export async function runAppsCreate(input: { name: string; profile: string }, ctx: CliContext) {
  const { dir, options } = await store(ctx, "apps create");
  const app = await createApp(dir, input, options);
  if (ctx.json) printJson(ctx, view(app, true));
  else ctx.io.stdout(`${app.id}\n`);
  ctx.io.stderr(`created app "${app.name}" bound to profile ${app.profile}; send its ID in X-App-ID\n`);
  return 0;
}

/** App IDs are masked as the dashboard masks them; `--reveal` shows them in full. */
export async function runAppsList(input: AppsListOptions, ctx: CliContext) {
  const { dir, options } = await store(ctx, "apps list");
  const config = await loadConfig(dir, options.registry);
  const apps = [...config.apps.values()].map((app) => view(app, input.reveal === true));
  if (ctx.json) printJson(ctx, { apps });
  else if (apps.length === 0)
    ctx.io.stdout("no apps; create one with `npx guardrail apps create NAME --profile P`\n");
  else {
    const rows = apps.map((a) => [a.name, a.id, a.profile, a.created ?? ""]);
    ctx.io.stdout(table([["NAME", "APP ID", "PROFILE", "CREATED"], ...rows]));
  }
  return 0;
}

export async function runAppsBind(input: { id: string; profile: string }, ctx: CliContext) {
  const { dir, options } = await store(ctx, "apps bind");
  const { app, previous } = await bindApp(dir, input.id, input.profile, options);
  if (ctx.json) printJson(ctx, { ...view(app, false), previous });
  else ctx.io.stdout(`bound app "${app.name}" to profile ${app.profile} (was ${previous})\n`);
  return 0;
}

export async function runAppsDelete(id: string, ctx: CliContext) {
  const { dir, options } = await store(ctx, "apps delete");
  const app = await deleteApp(dir, id, options);
  if (ctx.json) printJson(ctx, { deleted: view(app, false) });
  else ctx.io.stdout(`deleted app "${app.name}"; requests with its App ID now get 404\n`);
  return 0;
}
