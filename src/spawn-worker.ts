import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts `script` on a worker thread. Run from src/ (vitest, tsx) a worker needs tsx's loader to
 * import TypeScript; the built dist/ runs plain JS.
 */
export function spawnWorker(
  script: URL,
  workerData: unknown,
  transferList: NonNullable<WorkerOptions["transferList"]> = [],
): Worker {
  const options = { workerData, transferList };
  if (!script.pathname.endsWith(".ts")) return new Worker(script, options);
  const api = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api")).href.replace(
    /\.cjs$/,
    ".mjs",
  );
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true, ...options });
}

/** A sibling module of the caller, as .ts under src/ and .js under dist/. */
export function siblingScript(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);
}
