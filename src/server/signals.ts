import type { RunningServer } from "./start.js";

export type StopSignal = "SIGTERM" | "SIGINT";
/** Why a server stopped: a signal, or (see `parentPid`) the process that started it went away. */
export type StopReason = StopSignal | "parent exited";

export interface SignalOptions {
  /**
   * Stop as on SIGTERM once this process is gone (checked every `checkEveryMs`). For a server
   * started through npm: `kill` of `npx guardrail serve &` reaches npm, which passes it to the
   * shell it ran the command in, and the shell dies without passing it on. Without this, the
   * server outlived everything that started it.
   */
  readonly parentPid?: number;
  readonly checkEveryMs?: number;
}

/** Whether process `pid` exists (EPERM: it does, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The process wiring for `guardrail serve`, kept out of startServer so tests and embedders own
 * their process. SIGHUP reloads the config; the first SIGTERM or SIGINT stops accepting, lets
 * in-flight requests finish, and resolves with the signal so the CLI can pick the exit code.
 * The handlers are removed then, so a second Ctrl-C kills a drain that takes too long.
 */
export function handleSignals(
  server: Pick<RunningServer, "reload" | "close">,
  { parentPid, checkEveryMs = 1_000 }: SignalOptions = {},
): Promise<StopReason> {
  return new Promise((resolve, reject) => {
    const reload = () => void server.reload();
    const watch =
      parentPid === undefined
        ? undefined
        : setInterval(() => alive(parentPid) || stop("parent exited"), checkEveryMs).unref();
    const stop = (reason: StopReason) => {
      clearInterval(watch);
      process.off("SIGHUP", reload).off("SIGTERM", stop).off("SIGINT", stop);
      server.close().then(() => resolve(reason), reject);
    };
    process.on("SIGHUP", reload).on("SIGTERM", stop).on("SIGINT", stop);
  });
}

/**
 * The parent to follow (see `SignalOptions.parentPid`) when npm started this process, as `npx`,
 * `npm exec` and `npm run` do (they set npm_lifecycle_event); undefined otherwise, so a server
 * started under nohup or a service manager keeps running whatever happens to its parent.
 */
export function npmParent(env: NodeJS.ProcessEnv, ppid = process.ppid): SignalOptions {
  return env.npm_lifecycle_event === undefined ? {} : { parentPid: ppid };
}
