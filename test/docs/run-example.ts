import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, root } from "../helpers/built.js";

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code of each `npx guardrail …` the script ran, in order. */
  readonly codes: number[];
}

/** `npx guardrail` runs the built binary of this checkout, and records its exit codes. */
const PRELUDE = `npx() {
  if [ "$1" = guardrail ]; then shift; node "$GUARDRAIL_BIN" "$@"; local rc=$?; echo $rc >> "$CODES"; return $rc; fi
  command npx "$@"
}
`;

/**
 * Runs a docs example as a reader would, in bash, from a fresh folder holding the checkout's
 * `datasets/` (the examples' paths are relative to the checkout), so whatever it writes
 * (`./guardrail`, reports) lands in a temporary folder, never in the checkout. `inCheckout` runs
 * it in the checkout itself, for a command that writes nothing and prints paths relative to it.
 */
export async function runExample(script: string, { inCheckout = false } = {}): Promise<Ran> {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-docs-"));
  try {
    await symlink(join(root, "datasets"), join(dir, "datasets"));
    // The examples' `mktemp -d` folders go inside this one, so they are removed with it.
    await mkdir(join(dir, ".tmp"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TMPDIR: join(dir, ".tmp"),
      GUARDRAIL_BIN: bin,
      CODES: join(dir, ".codes"),
      CI: "1",
    };
    delete env.GUARDRAIL_CONFIG;
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          "bash",
          ["-c", PRELUDE + script],
          { cwd: inCheckout ? root : dir, env, maxBuffer: 64 << 20 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      },
    );
    const codes = (await readFile(join(dir, ".codes"), "utf8").catch(() => ""))
      .split("\n")
      .filter(Boolean)
      .map(Number);
    return { code, stdout, stderr, codes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
