import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../src/errors.js";

export const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);

/** A private copy of a fixture directory, for tests that write. */
export async function copyFixture(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `guardrail-${name}-`));
  await cp(fixture(name), dir, { recursive: true });
  return dir;
}

/** The problem lines of the ConfigError `work` rejects with; fails the test if it resolves. */
export async function problemsOf(work: Promise<unknown>): Promise<readonly string[]> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.problems;
}
