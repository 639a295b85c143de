import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliContext } from "../../src/cli/context.js";
import type { Io } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/main.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { Encoder } from "../../src/models/encoder.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/encoder.js";

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Setup {
  /** Text on stdin; absent means stdin is a terminal. */
  readonly stdin?: string;
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  readonly color?: boolean;
  /** Replaces the guardrail registry, e.g. with one that fails to load. */
  readonly registry?: CliContext["registry"];
}

function fakeIo(setup: Setup, out: { stdout: string; stderr: string }): Io {
  return {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    readStdin: async () => setup.stdin ?? "",
    stdinIsTTY: setup.stdin === undefined,
    color: setup.color ?? false,
  };
}

// The real encoder, loaded once for the whole file: the bundled profiles use the model-backed guardrails.
let encoder: Promise<Encoder> | undefined;
const sharedEncoder = () => {
  encoder ??= Promise.resolve(createUseLiteEncoder());
  return encoder;
};

/** Runs the CLI in-process, as `guardrail ...argv` would, and collects what it printed. */
export async function cli(argv: readonly string[], setup: Setup = {}): Promise<Run> {
  const out = { stdout: "", stderr: "" };
  const code = await runCli(argv, {
    io: fakeIo(setup, out),
    env: setup.env ?? {},
    cwd: setup.cwd ?? (await emptyDir()),
    registry: setup.registry ?? (async () => builtinGuardrails),
    encoder: sharedEncoder,
  });
  return { code, ...out };
}

/** A context for calling one command function directly; `output()` reads what it printed. */
export function context(setup: Setup & { json?: boolean; config?: string } = {}) {
  const out = { stdout: "", stderr: "" };
  const ctx: CliContext = {
    io: fakeIo(setup, out),
    json: setup.json ?? false,
    configFlag: setup.config,
    env: setup.env ?? {},
    // A directory that does not exist holds no ./guardrail, so the bundled profiles apply.
    cwd: setup.cwd ?? join(tmpdir(), "guardrail-test-no-such-dir"),
    registry: async () => builtinGuardrails,
    encoder: sharedEncoder,
  };
  return { ctx, output: () => ({ ...out }) };
}

/** A fresh directory with no ./guardrail in it, so the bundled profiles apply. */
export const emptyDir = () => mkdtemp(join(tmpdir(), "guardrail-cli-"));

/** `guardrail init` into a fresh directory; returns the config directory. */
export async function initDir(): Promise<string> {
  const dir = join(await emptyDir(), "guardrail");
  const run = await cli(["init", dir]);
  if (run.code !== 0) throw new Error(run.stderr);
  return dir;
}

export const json = (run: Run) => JSON.parse(run.stdout) as Record<string, unknown>;
