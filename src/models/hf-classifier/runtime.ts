import { dirname } from "node:path";
import "../ort-telemetry.js";

/**
 * The one place that imports @huggingface/transformers, and only on demand: the import alone
 * costs 0.15–0.3 s and ~40 MB of RSS, which only profiles with their own model should pay.
 */
export type Transformers = typeof import("@huggingface/transformers");
type TransformersEnv = Transformers["env"];

export async function importOfflineTransformers(modelDir: string): Promise<Transformers> {
  const transformers = await import("@huggingface/transformers");
  makeOffline(transformers.env, modelDir, transformers.LogLevel.ERROR);
  return transformers;
}

/**
 * The library's settings are process-wide; these are the same for every model this project
 * loads, so setting them again per load is harmless. Absolute paths are never taken for hub ids,
 * so the folder is read as given; `localModelPath` only backs that up.
 */
export function makeOffline(env: TransformersEnv, modelDir: string, logLevel: number): void {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = dirname(modelDir);
  env.useFS = true;
  // No cache writes into node_modules, and no way to reach a network even by mistake.
  env.useFSCache = false;
  env.useBrowserCache = false;
  env.useWasmCache = false;
  env.fetch = refuseNetwork;
  // Its warnings go to the console; engine code never writes there, failures arrive as errors.
  env.logLevel = logLevel;
}

async function refuseNetwork(input: string | URL): Promise<never> {
  throw new Error(`network access is disabled: guardrail loads models only from local folders (${input})`);
}
