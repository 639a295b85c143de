import { configFingerprint } from "../../../config/fingerprint.js";
import { type Config, loadConfig } from "../../../config/load.js";
import { type CompiledProfile, compileProfile, needsEncoder } from "../../../engine/compile.js";
import { createEngine, type Engine } from "../../../engine/engine.js";
import { ConfigError, UsageError } from "../../../errors.js";
import type { Encoder } from "../../../models/encoder.js";
import type { DashboardDeps } from "../section.js";

interface Loaded {
  readonly fingerprint: string;
  readonly config: Promise<Config>;
  readonly compiled: Map<string, Promise<CompiledProfile>>;
}

/**
 * The config Try it checks with, always the files' current state: each use compares the
 * directory's fingerprint (a few stat calls, as the server's watcher does) and reloads when the
 * CLI or an editor changed something. Profiles are compiled on first use, one at a time, and the
 * sentence encoder is loaded only for a profile whose guardrails read embeddings.
 */
export function createTryConfig(deps: DashboardDeps, encoder?: () => Promise<Encoder>) {
  let loaded: Loaded | undefined;
  const engines = new Map<boolean, Engine>();

  const current = async (): Promise<Loaded> => {
    const fingerprint = await configFingerprint(deps.configDir);
    if (loaded?.fingerprint !== fingerprint) {
      const config = loadConfig(deps.configDir, deps.registry);
      config.catch(() => {}); // awaited by each caller; a broken config is reported there
      loaded = { fingerprint, config, compiled: new Map() };
    }
    return loaded;
  };

  const engineFor = async (withEncoder: boolean) => {
    let engine = engines.get(withEncoder);
    if (!engine) {
      const shared = withEncoder && encoder ? await encoder() : undefined;
      engine = createEngine({ registry: deps.registry, ...(shared ? { encoder: shared } : {}) });
      engines.set(withEncoder, engine);
    }
    return engine;
  };

  return {
    config: async () => (await current()).config,
    /** The named profile compiled, and an engine that can run it; a ConfigError names the file. */
    async profile(name: string): Promise<{ compiled: CompiledProfile; engine: Engine }> {
      const state = await current();
      const config = await state.config;
      const profile = config.profiles.get(name);
      if (!profile) throw new UsageError(`unknown profile "${name}"; it may have been removed meanwhile`);
      const wantsEncoder = needsEncoder(profile, deps.registry);
      if (wantsEncoder && !encoder) throw new UsageError(`profile "${name}" needs the sentence encoder`);
      let compiled = state.compiled.get(name);
      if (!compiled) {
        const model = wantsEncoder ? await encoder?.() : undefined;
        compiled = compileProfile(profile, deps.registry, model).catch((error: Error) => {
          throw new ConfigError(`${profile.file}: ${error.message}`);
        });
        state.compiled.set(name, compiled);
      }
      return { compiled: await compiled, engine: await engineFor(wantsEncoder) };
    },
  };
}

export type TryConfig = ReturnType<typeof createTryConfig>;
