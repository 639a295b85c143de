import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RunningServer, StartOptions } from "../../src/server/start.js";
import { ensureBuilt, root } from "./built.js";

/**
 * startServer from the built dist/, in this process. Tests that measure how long a config change
 * takes to reach a server use it: from src/, every reload's loader thread boots tsx first (1.3–2 s
 * here), which production never does (0.3–0.4 s).
 */
export async function startBuiltServer(options: StartOptions): Promise<RunningServer> {
  const entry = join(root, "dist", "server", "start.js");
  await ensureBuilt(entry);
  const built = (await import(pathToFileURL(entry).href)) as typeof import("../../src/server/start.js");
  return built.startServer(options);
}
