// A batch worker thread: a composition root of its own. It loads the config and the models on its
// thread, compiles the profile (and the --compare one) once, then evaluates what the main thread
// sends: byte ranges of the file to read and parse here, or (files that cannot be split) rows the
// main thread parsed.
import { loadBundledConfig, loadConfig, resolveConfigDir } from "../../config/load.js";
import { serveWorker } from "../../eval/pool-worker.js";
import { builtinGuardrails } from "../../guardrails/registry.js";
import type { CheckMode } from "../../guardrails/types.js";
import { PRECISION_ENV, parsePrecision } from "../../models/use-lite/precision.js";
import { compileChosen } from "../compile-selected.js";
import { type ChunkTask, evaluateChunk } from "./chunk-task.js";
import { coalescingEncoder } from "./coalescing-encoder.js";
import { createRowEvaluator, type RowTask } from "./evaluate-rows.js";

export interface WorkerSetup {
  readonly configFlag: string | undefined;
  readonly configEnv: string | undefined;
  /** GUARDRAIL_ENCODER_PRECISION as the main thread's environment has it, read when a profile embeds. */
  readonly precisionEnv: string | undefined;
  readonly cwd: string;
  readonly profile?: string;
  readonly app?: string;
  /** `--compare`: the second profile, judged with the first in the same engine calls. */
  readonly compare?: string;
  readonly mode: CheckMode;
  /** Shared with the main thread: non-zero once the run is stopping (Ctrl-C), checked per batch. */
  readonly stop: SharedArrayBuffer;
}

export type WorkerTask = { readonly rows: RowTask[] } | { readonly chunk: ChunkTask };

// Results travel as one JSON string: cloning a string is a copy, where cloning thousands of small
// nested objects costs the main thread more than parsing them.
serveWorker<{ evaluate: ReturnType<typeof createRowEvaluator>; stopped: () => boolean }, WorkerTask, string>(
  async (data) => {
    const setup = data as WorkerSetup;
    const registry = builtinGuardrails;
    const dir = resolveConfigDir(setup.configFlag, { GUARDRAIL_CONFIG: setup.configEnv }, setup.cwd);
    const config = dir ? await loadConfig(dir, registry) : await loadBundledConfig(registry);
    const { compiled, compared, engine } = await compileChosen(config, registry, setup, async () => {
      const { createUseLiteEncoder } = await import("../../models/use-lite/encoder.js");
      return coalescingEncoder(
        createUseLiteEncoder({ precision: parsePrecision(setup.precisionEnv, PRECISION_ENV) }),
      );
    });
    const stop = new Int32Array(setup.stop);
    return {
      evaluate: createRowEvaluator(engine, compiled, setup.mode, compared),
      stopped: () => Atomics.load(stop, 0) !== 0,
    };
  },
  async ({ evaluate, stopped }, task) =>
    JSON.stringify(
      "chunk" in task ? await evaluateChunk(task.chunk, evaluate, stopped) : await evaluate(task.rows),
    ),
);
