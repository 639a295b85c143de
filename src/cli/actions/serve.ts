import { UsageError } from "../../errors.js";
import { precisionFromEnv } from "../../models/use-lite/precision.js";
import type { RunningServer, StartOptions } from "../../server/start.js";
import type { Limits } from "../../server/types.js";
import type { ServeOptions } from "../commands/serve.js";
import { type CliContext, requireConfigDir } from "../context.js";

/** The process-level pieces, swapped in tests so nothing listens on signals of the test runner. */
export interface ServeDeps {
  readonly start: (options: StartOptions) => Promise<RunningServer>;
  readonly waitForStop: (server: RunningServer) => Promise<string>;
}

export async function processDeps(): Promise<ServeDeps> {
  const [{ startServer }, { handleSignals, npmParent }, { tuneV8ForServing }] = await Promise.all([
    import("../../server/start.js"),
    import("../../server/signals.js"),
    import("../../server/v8-tuning.js"),
  ]);
  tuneV8ForServing();
  return { start: startServer, waitForStop: (server) => handleSignals(server, npmParent(process.env)) };
}

/**
 * Serves until SIGTERM or SIGINT, then resolves 0 once in-flight requests have drained.
 * stdout carries the server's JSON log lines; the one human line goes to stderr.
 */
export async function runServe(options: ServeOptions, ctx: CliContext, deps?: ServeDeps): Promise<number> {
  const configDir = requireConfigDir(ctx, "serve");
  return serveUntilStopped(options, ctx, configDir, deps ?? (await processDeps()));
}

/** What `serve` and `proxy` share: the flags as start options, listen errors in flag terms, the wait. */
export async function serveUntilStopped(
  options: ServeOptions,
  ctx: CliContext,
  configDir: string,
  { start, waitForStop }: ServeDeps,
): Promise<number> {
  if (options.metricsHost !== undefined && options.metricsPort === undefined)
    throw new UsageError("--metrics-host needs --metrics-port");
  const limits: Partial<Limits> = {
    ...(options.bodyLimit === undefined ? {} : { bodyBytes: options.bodyLimit }),
    ...(options.maxMessageChars === undefined ? {} : { messageChars: options.maxMessageChars }),
  };
  const server = await start({
    configDir,
    host: options.host,
    port: options.port,
    limits,
    encoderPrecision: precisionFromEnv(ctx.env),
    ...(options.maxConnections === undefined
      ? {}
      : { connections: { maxConnections: options.maxConnections } }),
    ...(options.metricsPort === undefined
      ? {}
      : { metrics: { port: options.metricsPort, host: options.metricsHost ?? "127.0.0.1" } }),
    registry: await ctx.registry(),
    log: (record) => ctx.io.stdout(`${JSON.stringify(record)}\n`),
  }).catch((error: NodeJS.ErrnoException & { port?: number }) => {
    // Node's listen errors name the port: say which of the two flags to change.
    const onMetrics =
      options.metricsPort !== undefined && error.port === options.metricsPort && error.port !== options.port;
    const [flag, where] = onMetrics
      ? ["--metrics-port", `${options.metricsHost ?? "127.0.0.1"}:${options.metricsPort}`]
      : ["--port", `${options.host}:${options.port}`];
    if (error.code === "EADDRINUSE") throw new UsageError(`${where} is already in use; pick another ${flag}`);
    if (error.code === "EACCES") throw new UsageError(`not allowed to listen on ${where}; use a port ≥ 1024`);
    throw error;
  });
  const metrics = server.metricsUrl ? `; metrics at ${server.metricsUrl}` : "";
  ctx.io.stderr(`listening on ${server.url} (config ${configDir})${metrics}; Ctrl-C to stop\n`);
  const signal = await waitForStop(server);
  ctx.io.stderr(`stopped (${signal})\n`);
  return 0;
}
