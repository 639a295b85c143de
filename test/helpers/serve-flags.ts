import { Command } from "@commander-js/extra-typings";
import { declareCommands } from "../../src/cli/program.js";

/**
 * Parses `args` (after `guardrail`) with the CLI's real declarations and runs nothing (the
 * action's work is handed to an `execute` that drops it): what commander makes of a command line
 * written in a Dockerfile or a manifest. An unknown flag or a bad value throws commander's error.
 */
export async function parseCli(args: readonly string[]) {
  const program = declareCommands(
    new Command().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} }),
    async () => {},
  );
  await program.parseAsync([...args], { from: "user" });
  const command = program.commands.find((c) => c.name() === args[0]);
  return { global: program.opts() as Record<string, unknown>, options: command?.opts() ?? {} };
}
