import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { loadConfig } from "../config/load.js";
import { loadConfigOffThread } from "../config/load-off-thread.js";
import { compileNotes, needsEncoder } from "../engine/compile.js";
import { type CompiledConfig, compileConfig } from "../engine/compile-config.js";
import type { Engine } from "../engine/engine.js";
import { createEngine } from "../engine/engine.js";
import { ConfigError } from "../errors.js";
import { builtinGuardrails, type GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import { createUseLiteEncoder } from "../models/use-lite/encoder.js";
import { createPooledEncoder } from "../models/use-lite/encoder-pool.js";
import { DEFAULT_PRECISION, type Precision } from "../models/use-lite/precision.js";
import { withVectorCache } from "../models/vector-cache.js";
import { createApp } from "./app.js";
import {
  type ConnectionLimits,
  createHttpServer,
  DEFAULT_CONNECTION_LIMITS,
  type FetchApp,
  listen,
} from "./http-server.js";
import { meteredEngine } from "./metered-engine.js";
import { createMetrics, type ServerMetrics } from "./metrics.js";
import { type MetricsListen, startMetricsServer } from "./metrics-server.js";
import { loadOpenApiDocument } from "./openapi.js";
import { laneEngine, startTextLane } from "./text-lane.js";
import { DEFAULT_LIMITS, type Limits, type Logger, logRecord } from "./types.js";
import { watchConfigDir } from "./watch.js";

/** What the composition root hands the app it serves (see `StartOptions.app`). */
export interface AppParts {
  readonly engine: Engine;
  /** The config as last loaded: called once per request, so a reload swaps it atomically. */
  readonly getConfig: () => CompiledConfig;
  readonly log: Logger;
  readonly version: string;
  readonly models: () => Record<string, unknown>;
  readonly limits?: Partial<Limits>;
  readonly metrics?: ServerMetrics;
}

export interface StartOptions {
  readonly configDir: string;
  readonly host?: string;
  /** 0 picks a free port; the returned `port` is the real one. */
  readonly port?: number;
  readonly limits?: Partial<Limits>;
  readonly log?: Logger;
  readonly registry?: GuardrailRegistry;
  /** The shared sentence encoder (default: USE-lite, loaded only when a profile needs it). */
  readonly encoder?: Encoder;
  /** Threads running the default encoder (default min(2, cores)); 0 runs it on the main thread. */
  readonly encoderWorkers?: number;
  /** The default encoder's precision: int8 (default) or fp32 (`GUARDRAIL_ENCODER_PRECISION` for `serve`). */
  readonly encoderPrecision?: Precision;
  /** Reload when the config directory changes (default true). */
  readonly watch?: boolean;
  /** How long close() waits for in-flight requests before cutting connections (default 10 s). */
  readonly drainMs?: number;
  /** Deadlines and caps per connection; tests shorten them. */
  readonly connections?: Partial<ConnectionLimits>;
  /**
   * Check long texts on a worker thread (see text-lane.ts). Default: on with the built-in
   * guardrails and encoder, which the lane's thread rebuilds; off with substitutes (tests).
   */
  readonly textLane?: boolean;
  /** Serve `GET /metrics` on a listener of its own (see metrics-server.ts); without it nothing is collected. */
  readonly metrics?: MetricsListen;
  /** The app to serve over the config (default: input-check and output-check, see app.ts). */
  readonly app?: (parts: AppParts) => FetchApp | Promise<FetchApp>;
  /** Whether every request needs an org API key, so a config without one is warned of (default true). */
  readonly keysRequired?: boolean;
}

export interface RunningServer {
  readonly port: number;
  readonly url: string;
  /** Where `/metrics` is served, when `metrics` was given. */
  readonly metricsUrl?: string;
  /** Re-reads the config; on any problem keeps serving the last good one and resolves false. */
  reload(): Promise<boolean>;
  /** Stops accepting, lets in-flight requests finish (up to `drainMs`), then resolves. */
  close(): Promise<void>;
}

/**
 * JSON lines on stdout, written once per turn of the event loop: stdout to a file or pipe is a
 * synchronous write, and one syscall per request showed up in profiles under load. Pending lines
 * are flushed on exit.
 */
export function createStdoutLogger(out: NodeJS.WriteStream = process.stdout): Logger {
  let pending = "";
  let armed = false;
  const flush = () => {
    if (pending) out.write(pending);
    pending = "";
  };
  return (record) => {
    if (!armed) process.once("exit", flush);
    armed = true;
    if (!pending) setImmediate(flush);
    pending += `${JSON.stringify(record)}\n`;
  };
}

async function packageVersion(): Promise<string> {
  // Two levels up from both src/server and dist/server.
  const file = new URL("../../package.json", import.meta.url);
  return readFile(file, "utf8").then(
    (text) => String(JSON.parse(text).version),
    () => "unknown",
  );
}

function warnIfNoKeys(compiled: CompiledConfig, log: Logger): void {
  if (compiled.config.keys.some((key) => !key.revoked)) return;
  log(
    logRecord("warn", "no active API keys: every check request will get 401 Invalid API key", {
      hint: "create one with `guardrail keys create` (the config is reloaded automatically)",
    }),
  );
}

function reportNotes(compiled: CompiledConfig, log: Logger): void {
  for (const profile of compiled.profiles.values()) {
    for (const note of compileNotes(profile)) log(logRecord("warn", note));
  }
}

/**
 * The composition root of `guardrail serve` (and, with `app`, of `guardrail proxy`). A ConfigError at start is the caller's to report. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { configDir, host = "127.0.0.1", port = 8080, log = createStdoutLogger() } = options;
  const registry = options.registry ?? builtinGuardrails;
  const workers = options.encoderWorkers ?? Math.min(2, availableParallelism());
  const precision = options.encoderPrecision ?? DEFAULT_PRECISION;
  const pool = !options.encoder && workers > 0 ? createPooledEncoder({ workers, precision }) : undefined;
  const encoder = options.encoder ?? pool ?? createUseLiteEncoder({ precision });
  // Compiling loads whatever models the profiles need, so the server listens only once it can answer.
  // The built-in guardrails can be rebuilt on other threads (a config loader, the text lane).
  const builtin = registry === builtinGuardrails;
  const load = async (offThread = false) => {
    const config =
      offThread && builtin ? await loadConfigOffThread(configDir) : await loadConfig(configDir, registry);
    return compileConfig(config, registry, encoder);
  };

  let current = await load();
  let loadedAt = Date.now();
  const keysRequired = options.keysRequired ?? true;
  if (keysRequired) warnIfNoKeys(current, log);
  reportNotes(current, log);
  // Loaded before listening when a profile needs it, so the first request finds it ready.
  const encoderState = async () => {
    const needed = [...current.config.profiles.values()].some((p) => needsEncoder(p, registry));
    return needed ? { encoder: { id: (await encoder.load()).id, ready: true } } : { encoder: "not needed" };
  };
  let modelState = await encoderState();
  const laneWanted = options.textLane ?? (builtin && !options.encoder && workers > 0);
  const laneFailed = (problem: string) =>
    log(
      logRecord("error", "text lane could not compile the profiles; long texts fail until a reload", {
        problems: [problem],
      }),
    );
  // Checks share one vector cache, the lane's too: consecutive chunks of a streamed response hold
  // mostly the same windows (their context), which are embedded once.
  const checkEncoder = withVectorCache(encoder);
  const lane = laneWanted ? startTextLane(checkEncoder, current.config.profiles, laneFailed) : undefined;
  const release = async () => {
    await lane?.close();
    if (!options.encoder) await encoder.close();
  };
  const engine = createEngine({ registry, encoder: checkEncoder });
  const version = await packageVersion();
  const metrics = options.metrics
    ? createMetrics({
        version,
        encoderId: () => (typeof modelState.encoder === "string" ? undefined : modelState.encoder.id),
        configLoadedAt: () => loadedAt,
        ...(pool ? { pool: () => pool.stats() } : {}),
        ...(lane ? { laneInFlight: () => lane.inFlight() } : {}),
      })
    : undefined;
  const checks = lane ? laneEngine(engine, lane) : engine;
  const parts: AppParts = {
    engine: metrics ? meteredEngine(checks, metrics) : checks,
    getConfig: () => current,
    log,
    version,
    models: () => modelState,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(metrics ? { metrics } : {}),
  };
  const app = options.app
    ? await options.app(parts)
    : createApp({ ...parts, openapi: await loadOpenApiDocument() });
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const bodyBytes = options.limits?.bodyBytes ?? DEFAULT_LIMITS.bodyBytes;
  const { server, drain } = createHttpServer(app, host, { ...limits, bodyBytes }, log, metrics?.rejected);
  const { port: listeningPort, url } = await listen(server, host, port);
  const metricsServer =
    metrics && options.metrics
      ? await startMetricsServer(metrics.registry, options.metrics, limits, log).catch(async (error) => {
          // The API port is open already: close it, or a failed start would leave it listening.
          await drain(0);
          await release();
          throw error;
        })
      : undefined;

  const reloadOnce = async () => {
    try {
      // Off the serving thread: a large profile's YAML would hold every request while it parses.
      current = await load(true);
    } catch (error) {
      const problems = error instanceof ConfigError ? error.problems : [String(error)];
      log(logRecord("error", "config reload failed; still serving the previous config", { problems }));
      metrics?.reloaded(false);
      return false;
    }
    loadedAt = Date.now();
    metrics?.reloaded(true);
    const { profiles, apps } = current.config;
    log(logRecord("info", "config reloaded", { profiles: profiles.size, apps: apps.size }));
    await lane?.reload(profiles).catch((error: Error) => {
      log(
        logRecord("error", "text lane reload failed; long texts are checked with the previous profiles", {
          problems: [error.message],
        }),
      );
    });
    if (keysRequired) warnIfNoKeys(current, log);
    reportNotes(current, log);
    modelState = await encoderState();
    return true;
  };
  // One reload at a time, in order: the last one to finish reflects the files' latest state.
  let reloading = Promise.resolve(true);
  const reload = () => (reloading = reloading.then(reloadOnce));
  const unwatch = options.watch === false ? () => {} : watchConfigDir(configDir, () => void reload());

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      unwatch();
      const drainMs = options.drainMs ?? 10_000;
      await Promise.all([drain(drainMs), metricsServer?.close(drainMs)]);
      await release();
    })();
    return closing;
  };

  const metricsUrl = metricsServer && `${metricsServer.url}/metrics`;
  log(
    logRecord("info", "listening", {
      url,
      config: configDir,
      ...(metricsUrl ? { metrics: metricsUrl } : {}),
    }),
  );
  return { port: listeningPort, url, ...(metricsUrl ? { metricsUrl } : {}), reload, close };
}
