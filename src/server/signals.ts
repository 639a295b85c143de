import type { RunningServer } from "./start.js";

export type StopSignal = "SIGTERM" | "SIGINT";

/**
 * The process wiring for `guardrail serve`, kept out of startServer so tests and embedders own
 * their process. SIGHUP reloads the config; the first SIGTERM or SIGINT stops accepting, lets
 * in-flight requests finish, and resolves with the signal so the CLI can pick the exit code.
 * The handlers are removed then, so a second Ctrl-C kills a drain that takes too long.
 */
export function handleSignals(server: RunningServer): Promise<StopSignal> {
  return new Promise((resolve, reject) => {
    const reload = () => void server.reload();
    const stop = (signal: StopSignal) => {
      process.off("SIGHUP", reload).off("SIGTERM", stop).off("SIGINT", stop);
      server.close().then(() => resolve(signal), reject);
    };
    process.on("SIGHUP", reload).on("SIGTERM", stop).on("SIGINT", stop);
  });
}
