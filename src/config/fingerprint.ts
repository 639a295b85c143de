import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { configPaths } from "./load.js";

/** Identity of one file as seen through any symlinks: a rename over it or a rewrite changes it. */
async function identity(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : "-";
}

/**
 * A cheap summary of what `loadConfig` would read: a handful of stat calls, no reads. `stat`
 * follows symlinks, so a Kubernetes volume whose `..data` link now points at a new folder gives
 * every file a new inode, and a file renamed over by `guardrail keys` a new one too. Equal
 * fingerprints mean nothing the loader reads has changed (short of a same-size rewrite in the same
 * clock tick that keeps the inode, which no writer of this config does).
 */
export async function configFingerprint(dir: string): Promise<string> {
  const paths = configPaths(dir);
  const names = await readdir(paths.profiles).catch(() => [] as string[]);
  const parts = await Promise.all(
    [paths.keys, paths.apps, paths.profiles, ...names.sort().map((n) => join(paths.profiles, n))].map(
      async (file) => `${file}=${await identity(file)}`,
    ),
  );
  return parts.join("\n");
}
