// Reads and validates a config directory on a worker thread (see load-off-thread.ts) and posts
// back the Config, or the problems that make it invalid.
import { parentPort, workerData } from "node:worker_threads";
import { ConfigError } from "../errors.js";
import { builtinGuardrails } from "../guardrails/registry.js";
import { loadConfig } from "./load.js";

const { dir } = workerData as { dir: string };
loadConfig(dir, builtinGuardrails).then(
  (config) => parentPort?.postMessage({ config }),
  (error: unknown) =>
    parentPort?.postMessage({
      problems:
        error instanceof ConfigError
          ? error.problems
          : [error instanceof Error ? error.message : String(error)],
    }),
);
