import { UsageError } from "../../errors.js";
import type { GuardrailRegistry } from "../../guardrails/registry.js";
import type { Encoder } from "../../models/encoder.js";
import {
  type ConnectionLimits,
  createHttpServer,
  DEFAULT_CONNECTION_LIMITS,
  listen,
} from "../http-server.js";
import type { RunningServer } from "../start.js";
import type { Logger } from "../types.js";
import { createDashboardApp } from "./app.js";
import { isLoopback } from "./guard.js";
import { dashboardSections } from "./sections.js";
import { createSessions, type SessionOptions } from "./sessions.js";

export interface DashboardOptions {
  readonly configDir: string;
  readonly registry: GuardrailRegistry;
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Listen on a non-loopback address and answer any Host header (behind your own TLS and access control). */
  readonly allowRemote?: boolean;
  /** The sentence encoder for Try it, made on first need. */
  readonly encoder?: () => Promise<Encoder>;
  /** Request lines (JSON); never a token, key or session id. */
  readonly log: Logger;
  /** Hears every one-time login link: at start and after each logout. The terminal, not the log. */
  readonly announce: (loginUrl: string, why: "start" | "logout") => void;
  readonly now?: () => Date;
  readonly sessions?: SessionOptions;
  readonly connections?: Partial<ConnectionLimits>;
}

/** What `handleSignals` stops; there is nothing to reload, every page reads the files afresh. */
export interface RunningDashboard extends RunningServer {
  readonly port: number;
}

/** The composition root of `guardrail dashboard`. */
export async function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const { host = "127.0.0.1", port = 8081, allowRemote = false, log } = options;
  if (!allowRemote && !isLoopback(host))
    throw new UsageError(
      `refusing to serve the dashboard on ${host}: it is an admin surface, loopback only (127.0.0.1, ::1, localhost) unless you pass --allow-remote`,
    );
  const sessions = createSessions(options.sessions);
  let listeningPort = 0;
  let linkBase = "";
  const app = createDashboardApp({
    deps: {
      configDir: options.configDir,
      registry: options.registry,
      now: options.now ?? (() => new Date()),
    },
    sections: dashboardSections(options.encoder ? { encoder: options.encoder } : {}),
    sessions,
    log,
    ...(allowRemote ? {} : { loopbackPort: () => listeningPort }),
    onLogout: () => options.announce(`${linkBase}/login?token=${sessions.issueLoginToken()}`, "logout"),
  });
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const { server, drain } = createHttpServer(app, host, limits, log);
  const { port: got, url } = await listen(server, host, port);
  listeningPort = got;
  // A wildcard address is not somewhere a browser can go: the link names this machine.
  linkBase = ["0.0.0.0", "::", "[::]"].includes(host) ? `http://127.0.0.1:${got}` : url;
  options.announce(`${linkBase}/login?token=${sessions.issueLoginToken()}`, "start");
  let closing: Promise<void> | undefined;
  return {
    port: got,
    url,
    reload: async () => true,
    close: () => (closing ??= drain(2_000)),
  };
}
