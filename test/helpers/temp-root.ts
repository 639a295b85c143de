import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MARK = "GUARDRAIL_TEST_TMPDIR";

/**
 * vitest's global setup: every temporary folder the tests make (`mkdtemp(tmpdir())`, a docs
 * example's `mktemp -d`, a child process's own) goes inside one folder per run, removed when the
 * run ends. Tests that clean up after themselves still do; a test that fails half-way, or a
 * server killed mid-write, no longer leaves a folder in /tmp for every run (a full run used to
 * leave ~330).
 */
export default async function setup(): Promise<() => Promise<void>> {
  // vitest runs a global setup once per project: the first one makes the folder, the others
  // use it (nesting them would make paths long enough to break Chromium's socket path).
  if (process.env[MARK]) return async () => {};
  const previous = process.env.TMPDIR;
  const root = await mkdtemp(join(tmpdir(), "guardrail-tests-"));
  // Read by os.tmpdir() on every call, and inherited by the test workers and what they spawn.
  process.env.TMPDIR = root;
  process.env[MARK] = root;
  return async () => {
    delete process.env[MARK];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    await rm(root, { recursive: true, force: true });
  };
}
