import { loadConfig } from "../../config/load.js";
import { createKey, revokeKey, secureKeyFile } from "../../config/store.js";
import type { KeysCreateOptions } from "../commands/keys.js";
import { type CliContext, printJson, requireConfigDir } from "../context.js";
import { table } from "../output.js";

async function store(ctx: CliContext, command: string) {
  return { dir: requireConfigDir(ctx, command), options: { registry: await ctx.registry() } };
}

/** Prints the new key once; only its SHA-256 reaches keys.yaml. */
export async function runKeysCreate(input: KeysCreateOptions, ctx: CliContext): Promise<number> {
  const { dir, options } = await store(ctx, "keys create");
  const { key, record, replaced } = await createKey(dir, input, options);
  if (ctx.json) printJson(ctx, { id: record.id, label: record.label, created: record.created, key });
  else ctx.io.stdout(`${key}\n`);
  // The key alone goes to stdout so `KEY=$(guardrail keys create)` works; the rest is for people.
  ctx.io.stderr(
    `created ${record.id}: this key is shown once and cannot be recovered; store it in your secret manager now\n`,
  );
  if (replaced) ctx.io.stderr(`revoked ${replaced.id}: requests using it now get 401\n`);
  return 0;
}

export async function runKeysList(ctx: CliContext): Promise<number> {
  const { dir, options } = await store(ctx, "keys list");
  if (await secureKeyFile(dir))
    ctx.io.stderr("warning: keys.yaml was readable by others; set it to mode 0600\n");
  const { keys } = await loadConfig(dir, options.registry);
  const rows = keys.map((k) => ({
    id: k.id,
    label: k.label,
    created: k.created,
    status: k.revoked ? "revoked" : "active",
    ...(k.revoked ? { revoked: k.revoked } : {}),
  }));
  if (ctx.json) printJson(ctx, { keys: rows });
  else if (rows.length === 0) ctx.io.stdout("no keys; create one with `npx guardrail keys create`\n");
  else {
    const cells = rows.map((r) => [r.id, r.label, r.created, r.revoked ? `revoked ${r.revoked}` : r.status]);
    ctx.io.stdout(table([["ID", "LABEL", "CREATED", "STATUS"], ...cells]));
  }
  return 0;
}

export async function runKeysRevoke(id: string, ctx: CliContext): Promise<number> {
  const { dir, options } = await store(ctx, "keys revoke");
  const { record, alreadyRevoked, activeLeft } = await revokeKey(dir, id, options);
  if (ctx.json) printJson(ctx, { id: record.id, revoked: record.revoked });
  else ctx.io.stdout(`${alreadyRevoked ? "already revoked" : "revoked"} ${record.id} at ${record.revoked}\n`);
  if (activeLeft === 0) {
    ctx.io.stderr("warning: no active key is left; the server will answer every request with 401\n");
  }
  return 0;
}
