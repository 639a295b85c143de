import { dirname } from "node:path";
import { ConfigError, UsageError } from "../../errors.js";
import { vectorGuardrail } from "../../guardrails/vector/index.js";
import { type SavedIndex, saveIndex } from "../../guardrails/vector/store.js";
import {
  bundledTarget,
  readProfileCorpora,
  userIndexDir,
  userTarget,
} from "../../guardrails/vector/targets.js";
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
  const encoder = await ctx.encoder?.();
  if (!encoder)
    throw new UsageError("index build needs the sentence encoder, which this build does not include");

  const rows: Row[] = [
    await timed("bundled", async () => saveIndex(await bundledTarget(paths), encoder, options.force)),
  ];
  for (const profile of chosen) {
    if (!profile) continue;
    const settings = vectorGuardrail.settings.parse(profile.guardrails.vector);
    if (settings.corpora.length === 0) continue;
    const profileDir = dirname(profile.file);
    const corpora = await readProfileCorpora(settings.corpora, profileDir).catch((error: Error) => {
      throw new ConfigError(`${profile.file}: ${error.message}`);
    });
    const target = userTarget(corpora, userIndexDir(profileDir), profile.name);
    rows.push(await timed(`profile ${profile.name}`, () => saveIndex(target, encoder, options.force)));
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
