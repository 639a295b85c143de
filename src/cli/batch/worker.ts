// A batch worker thread: a composition root of its own. It loads the config and the models on its
// thread, compiles the profile once, then evaluates batches of rows sent by the main thread.
import { loadBundledConfig, loadConfig, resolveConfigDir } from "../../config/load.js";
import { compileProfile, needsEncoder } from "../../engine/compile.js";
import { createEngine } from "../../engine/engine.js";
import { serveWorker } from "../../eval/pool-worker.js";
import type { RowResult } from "../../eval/summary.js";
import { builtinGuardrails } from "../../guardrails/registry.js";
import type { CheckMode } from "../../guardrails/types.js";
import { selectProfile } from "../select-profile.js";
import { coalescingEncoder } from "./coalescing-encoder.js";
import { createRowEvaluator, type RowTask } from "./evaluate-rows.js";

export interface WorkerSetup {
  readonly configFlag: string | undefined;
  readonly configEnv: string | undefined;
  readonly cwd: string;
  readonly profile?: string;
  readonly app?: string;
  readonly mode: CheckMode;
}

// Results travel as one JSON string: cloning a string is a copy, where cloning thousands of small
// nested objects costs the main thread more than parsing them.
serveWorker<(rows: readonly RowTask[]) => Promise<RowResult[]>, RowTask[], string>(
  async (data) => {
    const setup = data as WorkerSetup;
    const registry = builtinGuardrails;
    const dir = resolveConfigDir(setup.configFlag, { GUARDRAIL_CONFIG: setup.configEnv }, setup.cwd);
    const config = dir ? await loadConfig(dir, registry) : await loadBundledConfig(registry);
    const { profile } = selectProfile(config, setup);
    let encoder: Awaited<ReturnType<typeof coalescingEncoder>> | undefined;
    if (needsEncoder(profile, registry)) {
      const { createUseLiteEncoder } = await import("../../models/use-lite/encoder.js");
      encoder = coalescingEncoder(createUseLiteEncoder());
    }
    const compiled = await compileProfile(profile, registry, encoder);
    const engine = createEngine({ registry, ...(encoder ? { encoder } : {}) });
    return createRowEvaluator(engine, compiled, setup.mode);
  },
  async (evaluate, rows) => JSON.stringify(await evaluate(rows)),
);
