import { UsageError } from "../../errors.js";
import type { RunningDashboard, DashboardOptions as StartOptions } from "../../server/dashboard/start.js";
import type { DashboardOptions } from "../commands/dashboard.js";
import { type CliContext, requireConfigDir } from "../context.js";

/** The process-level pieces, swapped in tests so nothing listens on signals of the test runner. */
export interface DashboardDeps {
  readonly start: (options: StartOptions) => Promise<RunningDashboard>;
  readonly waitForStop: (server: RunningDashboard) => Promise<string>;
}

async function processDeps(): Promise<DashboardDeps> {
  const [{ startDashboard }, { handleSignals, npmParent }] = await Promise.all([
    import("../../server/dashboard/start.js"),
    import("../../server/signals.js"),
  ]);
  return { start: startDashboard, waitForStop: (server) => handleSignals(server, npmParent(process.env)) };
}

/**
 * Serves the dashboard until SIGTERM or SIGINT. The login link is the one secret printed, on
 * stderr with the other lines meant for the person at the terminal, like Jupyter's; stdout
 * carries the JSON request log, which never holds a token, a key or a session id.
 */
export async function runDashboard(options: DashboardOptions, ctx: CliContext, deps?: DashboardDeps) {
  const configDir = requireConfigDir(ctx, "dashboard");
  const { start, waitForStop } = deps ?? (await processDeps());
  const running = await start({
    configDir,
    registry: await ctx.registry(),
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote === true,
    ...(ctx.encoder ? { encoder: ctx.encoder } : {}),
    log: (record) => ctx.io.stdout(`${JSON.stringify(record)}\n`),
    announce: (link, why) =>
      ctx.io.stderr(
        why === "start"
          ? `dashboard for ${configDir}: open ${link} (works once; Ctrl-C to stop)\n`
          : `logged out; a new one-time login link: ${link}\n`,
      ),
  }).catch((error: NodeJS.ErrnoException) => {
    const where = `${options.host}:${options.port}`;
    if (error.code === "EADDRINUSE") throw new UsageError(`${where} is already in use; pick another --port`);
    if (error.code === "EACCES") throw new UsageError(`not allowed to listen on ${where}; use a port ≥ 1024`);
    throw error;
  });
  const signal = await waitForStop(running);
  ctx.io.stderr(`stopped (${signal})\n`);
  return 0;
}
