import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/built.js";

// The package as a dependency sees it: a TypeScript project outside src/ that imports `guardrail`
// and `guardrail/client` by name, resolved through package.json `exports` to dist/'s declarations.

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);

/** tsc on one of the consumer's configs: its exit code and what it printed. */
async function tsc(project: string, cwd: string): Promise<{ code: number; out: string }> {
  const bin = join(root, "node_modules", "typescript", "bin", "tsc");
  try {
    const { stdout } = await run(process.execPath, [bin, "-p", project], { cwd });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, out: failed.stdout ?? "" };
  }
}

describe("a TypeScript project depending on guardrail", () => {
  let dir: string;
  beforeAll(async () => {
    await ensureBuilt(join(root, "dist", "index.d.ts"));
    dir = await mkdtemp(join(tmpdir(), "library-consumer-"));
    await cp(join(import.meta.dirname, "consumer"), dir, { recursive: true });
    // As `npm install guardrail` would leave it, with the consumer's own @types/node beside it.
    await mkdir(join(dir, "node_modules"));
    await symlink(root, join(dir, "node_modules", "guardrail"), "dir");
    await symlink(join(root, "node_modules", "@types"), join(dir, "node_modules", "@types"), "dir");
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("type-checks its imports of the package by name", async () => {
    const result = await tsc("tsconfig.json", dir);
    expect(result.out).toBe("");
    expect(result.code).toBe(0);
  }, 60_000);

  it("cannot reach the package's internals past `exports`", async () => {
    const result = await tsc("tsconfig.deep.json", dir);
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(
      /deep-import\.ts.*Cannot find module 'guardrail\/dist\/library\/guardrail\.js'/,
    );
  }, 60_000);
});
