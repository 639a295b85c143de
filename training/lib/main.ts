/**
 * The one piece of module-scope work a training script does: run its `main` when the file is the
 * script Node was started with (importing it, as a test may, runs nothing). Exit codes as the CLI's:
 * 0 done, 2 a usage error (the message and the help go to stderr), 1 anything else.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HelpRequested, UsageError } from "./flags.js";

export function runMain(moduleUrl: string, main: (argv: string[]) => Promise<void> | void): void {
  const script = process.argv[1];
  if (!script || realpathSync(script) !== realpathSync(fileURLToPath(moduleUrl))) return;
  Promise.resolve()
    .then(() => main(process.argv.slice(2)))
    .catch((error: unknown) => {
      if (error instanceof HelpRequested) {
        console.log(error.usage);
      } else if (error instanceof UsageError) {
        console.error(`${error.message}\n\n${error.usage}`);
        process.exitCode = 2;
      } else {
        console.error(error);
        process.exitCode = 1;
      }
    });
}

/** A logger that prefixes each line with the seconds since `started`, as the trainers print. */
export function timedLog(started = performance.now()): (message: string) => void {
  return (message) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
}
