import { dirname } from "node:path";
import { ConfigError, UsageError } from "../../errors.js";
import { vectorGuardrail, vectorTargets } from "../../guardrails/vector/index.js";
import { loadOwnEncoder } from "../../guardrails/vector/own-model.js";
import { type SavedIndex, saveIndex } from "../../guardrails/vector/store.js";
import { bundledTarget } from "../../guardrails/vector/targets.js";
import type { IndexBuildOptions } from "../commands/index-build.js";
import { type CliContext, loadCliConfig, printJson } from "../context.js";
import { displayPath, table } from "../output.js";

/** Where the bundled corpus and index live; tests point these at a temporary directory. */
export interface IndexBuildPaths {
  readonly corpusFile?: string;
  readonly indexDir?: string;
}

interface Row extends SavedIndex {
  readonly index: string;
  readonly seconds: number;
}

async function timed(index: string, save: () => Promise<SavedIndex>): Promise<Row> {
  const started = performance.now();
  const saved = await save();
  return { index, ...saved, seconds: Math.round(performance.now() - started) / 1000 };
}

/**
 * Rebuilds the vector guardrail's indexes on disk: the bundled one under models/vector/, and one
 * per profile with its own `corpora` under `<config>/.index/`. Current indexes are left alone.
 */
export async function runIndexBuild(
  options: IndexBuildOptions,
  ctx: CliContext,
  paths: IndexBuildPaths = {},
): Promise<number> {
  const config = await loadCliConfig(ctx);
  const known = () => [...config.profiles.keys()].join(", ") || "none";
  const chosen =
    options.profile === undefined ? [...config.profiles.values()] : [config.profiles.get(options.profile)];
  if (chosen.some((p) => p === undefined)) {
    throw new UsageError(`unknown profile "${options.profile}" (known: ${known()})`);
  }
  // Always the fp32 encoder: the int8 one serves an index built by fp32 as is (store.ts), while an
  // index built by int8 would be stale for every fp32 user of the same files.
  const encoder = await ctx.encoder?.("fp32");
  if (!encoder)
    throw new UsageError("index build needs the sentence encoder, which this build does not include");

  const rows: Row[] = [
    await timed("bundled", async () => saveIndex(await bundledTarget(paths), encoder, options.force)),
  ];
  for (const profile of chosen) {
    if (!profile) continue;
    const settings = vectorGuardrail.settings.parse(profile.guardrails.vector);
    if (settings.corpora.length === 0 && !settings.model) continue;
    const profileDir = dirname(profile.file);
    // A profile with its own embedding model indexes the bundled corpus with it too. The model is
    // shared by every profile naming its folder (sharedModel) and lives until the command exits.
    const own = settings.model ? await loadOwnEncoder(settings.model, profileDir) : undefined;
    const ownId = own ? { encoderId: (await own.load()).id } : undefined;
    const targets = await vectorTargets(settings, profileDir, profile.name, ownId, paths).catch(
      (error: Error) => {
        throw new ConfigError(`${profile.file}: ${error.message}`);
      },
    );
    for (const [i, target] of (own ? targets : targets.slice(1)).entries()) {
      const name = `profile ${profile.name}${own ? (i === 0 ? " (own model, bundled corpus)" : " (own model)") : ""}`;
      rows.push(await timed(name, () => saveIndex(target, own ?? encoder, options.force)));
    }
  }

  if (ctx.json) printJson(ctx, { indexes: rows });
  else {
    const cells = rows.map((r) => [
      r.index,
      displayPath(ctx.cwd, r.file),
      `${r.rows} rows`,
      `${r.status} (${r.seconds} s)`,
    ]);
    ctx.io.stdout(table([["INDEX", "FILE", "ROWS", "STATUS"], ...cells]));
  }
  return 0;
}
