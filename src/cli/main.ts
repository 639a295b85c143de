import { Command, CommanderError } from "@commander-js/extra-typings";
import { GuardrailError } from "../errors.js";
import type { Encoder } from "../models/encoder.js";
import { type Precision, precisionFromEnv } from "../models/use-lite/precision.js";
import type { CliContext } from "./context.js";
import { type Io, processIo } from "./io.js";
import { packageVersion } from "./package-version.js";
import { declareCommands } from "./program.js";

/** What the outside world lends the CLI; `main` passes the real process, tests pass fakes. */
export interface MainDeps {
  readonly io: Io;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly registry: CliContext["registry"];
  readonly encoder?: CliContext["encoder"];
}

// Messages quote files and flags; escape codes in them (a crafted profile name, a binary data set)
// must not drive the terminal. Line breaks and tabs stay: messages list problems one per line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const printable = (text: string) =>
  text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * The one place errors become exit codes. Our own errors carry theirs (a ConfigError's message
 * lists every problem); commander has already printed its usage error; anything else is a bug.
 */
export function reportError(error: unknown, deps: Pick<MainDeps, "io" | "env">): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (error instanceof GuardrailError) {
    deps.io.stderr(`error: ${printable(error.message)}\n`);
    return error.exitCode;
  }
  const detail = error instanceof Error ? (deps.env.GUARDRAIL_DEBUG ? error.stack : error.message) : error;
  deps.io.stderr(`internal error: ${printable(String(detail))}\n`);
  return 2;
}

/** Parses `argv` (without node and the script), runs the command, and resolves to its exit code. */
export async function runCli(argv: readonly string[], deps: MainDeps): Promise<number> {
  let code = 0;
  const configured = new Command("guardrail")
    .description("Offline guardrails for LLM prompts and responses: check text, or serve the HTTP API")
    .version(packageVersion(), "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: deps.io.stdout, writeErr: deps.io.stderr })
    .showHelpAfterError("(add --help for usage)");
  // Global flags are parsed onto the program wherever they stand on the command line.
  const program = declareCommands(configured, async (run) => {
    const globals = program.opts();
    code = await run({
      io: deps.io,
      json: globals.json === true,
      configFlag: globals.config,
      env: deps.env,
      cwd: deps.cwd,
      registry: deps.registry,
      ...(deps.encoder ? { encoder: deps.encoder } : {}),
    });
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    return reportError(error, deps);
  }
}

/** The entry point `bin/guardrail.js` calls; the only code that sets the process exit code. */
export async function main(): Promise<void> {
  const encoders = new Map<Precision, Promise<Encoder>>();
  process.exitCode = await runCli(process.argv.slice(2), {
    io: processIo(),
    env: process.env,
    cwd: process.cwd(),
    registry: async () => (await import("../guardrails/registry.js")).builtinGuardrails,
    // Imported only when a profile needs it: rule-only commands never load onnxruntime.
    encoder: (precision = precisionFromEnv(process.env)) => {
      let encoder = encoders.get(precision);
      if (!encoder) {
        encoder = import("../models/use-lite/encoder.js").then((m) => m.createUseLiteEncoder({ precision }));
        encoders.set(precision, encoder);
      }
      return encoder;
    },
  });
}
