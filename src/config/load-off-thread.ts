import { ConfigError } from "../errors.js";
import { siblingScript, spawnWorker } from "../spawn-worker.js";
import type { Config } from "./load.js";

/**
 * loadConfig with the built-in guardrails, on a short-lived worker thread: parsing the YAML of a
 * profile with 100,000 keywords held a serving event loop for 0.5–0.7 s on every reload. The
 * thread costs ~0.1–0.3 s to start, so the server uses it for reloads, not at start-up. Throws a
 * ConfigError listing every problem, as loadConfig does.
 */
export function loadConfigOffThread(dir: string): Promise<Config> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker(siblingScript(import.meta.url, "load-worker"), { dir });
    let settled = false;
    worker.once("message", (reply: { config: Config } | { problems: string[] }) => {
      settled = true;
      if ("config" in reply) resolve(reply.config);
      else reject(new ConfigError(reply.problems));
      void worker.terminate();
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the config loader thread exited (code ${code})`));
    });
  });
}
