import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

export const root = join(import.meta.dirname, "../..");
export const bin = join(root, "bin", "guardrail.js");

/** Newest modification time under `dir`, to tell whether dist/ is older than src/. */
async function newest(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Math.max(
    0,
    ...entries.filter((e) => e.isFile()).map((e) => statSync(join(e.parentPath, e.name)).mtimeMs),
  );
}

/**
 * CI builds on `npm ci` (prepare); locally, rebuild when `entry` (a file under dist/, by default
 * the CLI) is missing or older than src/, so tests that run the built package never test stale code.
 */
export async function ensureBuilt(entry = join(root, "dist", "cli", "main.js")): Promise<void> {
  if (existsSync(entry) && statSync(entry).mtimeMs >= (await newest(join(root, "src")))) return;
  await promisify(execFile)("npm", ["run", "build"], { cwd: root });
}
