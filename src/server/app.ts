import { type Handler, Hono } from "hono";
import type { OutputFields } from "../engine/check-message-fields.js";
import type { CompiledProfile } from "../engine/compile.js";
import type { CompiledConfig } from "../engine/compile-config.js";
import type { Engine } from "../engine/engine.js";
import { HttpError, InputError } from "../errors.js";
import type { CheckMode } from "../guardrails/types.js";
import { authenticate } from "./auth.js";
import { type CheckRequestBody, readCheckBody } from "./body.js";
import { refusableChunks } from "./body-refusal.js";
import { CLIENT_CLOSED, clientGoneError, clientGoneSignal, isClientAbort } from "./client-abort.js";
import type { Endpoint, ServerMetrics } from "./metrics.js";
import { requestLog } from "./request-log.js";
import { requestMetrics } from "./request-metrics.js";
import { type AppEnv, DEFAULT_LIMITS, type Limits, type Logger } from "./types.js";

export const CHECK_PATHS = {
  input: "/apikey/api/guardrail/v1/input-check",
  output: "/apikey/api/guardrail/v1/output-check",
} as const satisfies Record<CheckMode, string>;

/** The names metrics count requests under, by exact path. */
const ENDPOINTS = new Map<string, Endpoint>([
  ...(["input", "output"] as const).map((mode) => [CHECK_PATHS[mode], `${mode}-check`] as const),
  ["/healthz", "healthz"],
]);

export interface AppDeps {
  readonly engine: Engine;
  /** Called once per request, so swapping what it returns reloads the config atomically. */
  readonly getConfig: () => CompiledConfig;
  readonly limits?: Partial<Limits>;
  readonly log: Logger;
  /** Reported by /healthz. */
  readonly version?: string;
  /** What /healthz says of the models: which are loaded and ready (no paths, no secrets). */
  readonly models?: () => Record<string, unknown>;
  /** docs/openapi.yaml, parsed (see openapi.ts): served at GET /openapi.json when given. */
  readonly openapi?: Record<string, unknown>;
  /** Where requests are counted; served on a listener of its own (see metrics-server.ts). */
  readonly metrics?: ServerMetrics;
}

/** Builds the HTTP interface; listens on nothing (see start.ts). */
export function createApp({
  engine,
  getConfig,
  limits: overrides,
  log,
  version = "unknown",
  models,
  openapi,
  metrics,
}: AppDeps) {
  const limits: Limits = { ...DEFAULT_LIMITS, ...overrides };
  const app = new Hono<AppEnv>();
  const auth = authenticate(getConfig);
  const error = (status: number, message: string, headers?: Record<string, string>) =>
    Response.json({ error: message }, { status, ...(headers ? { headers } : {}) });

  app.use(requestLog(log));
  if (metrics) app.use(requestMetrics(metrics, ENDPOINTS));

  const check = (
    mode: CheckMode,
    fields: CheckRequestBody,
    profile: CompiledProfile,
    signal: AbortSignal,
  ) => {
    if ("messages" in fields) return engine.checkMessages(fields.messages, profile, { signal });
    const { message, prompt, context, systemPrompt } = fields as OutputFields;
    const options = {
      signal,
      ...(context === undefined ? {} : { context }),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
    };
    return engine.check(mode, message, profile, prompt, options);
  };

  for (const mode of ["input", "output"] as const) {
    app.post(CHECK_PATHS[mode], auth, async (c) => {
      const resolved = c.get("resolved");
      if (!resolved) throw new Error("check route reached without authentication");
      const { incoming, outgoing } = c.env ?? {};
      const request = {
        contentType: c.req.header("content-type"),
        contentLength: c.req.header("content-length"),
        // Stopping early (a 413) must not destroy the socket: the answer still has to reach the client.
        chunks: incoming ? refusableChunks(incoming) : c.req.raw.body,
      };
      const fields = await readCheckBody(request, mode, limits);
      const signal = clientGoneSignal(outgoing, c.req.raw);
      const { body, failures } = await check(mode, fields, resolved.profile, signal);
      // Its guardrails failed for want of a client, not of a fault: no verdict is logged or sent.
      if (signal.aborted) throw clientGoneError();
      if (failures.length > 0) {
        c.set("guardrailFailures", failures);
        c.header("X-Guardrail-Errors", [...new Set(failures.map((f) => f.guardrail))].join(","));
      }
      return c.json(body);
    });
    // Wrong method is about the route, not the caller: answered before auth, like an unknown path.
    app.all(CHECK_PATHS[mode], () => error(405, "Method not allowed", { Allow: "POST" }));
  }

  app.get("/healthz", healthz(getConfig, version, models));
  app.all("/healthz", () => error(405, "Method not allowed", { Allow: "GET, HEAD" }));

  if (openapi) {
    // Serialised once: the document never changes while the process runs. No key: it describes
    // the interface, nothing of the config (the same as the README and docs/openapi.yaml say).
    const document = JSON.stringify(openapi);
    app.get("/openapi.json", (c) => c.body(document, 200, { "Content-Type": "application/json" }));
    app.all("/openapi.json", () => error(405, "Method not allowed", { Allow: "GET, HEAD" }));
  }

  app.notFound(() => error(404, "Not found"));
  app.onError((err, c) => {
    if (err instanceof HttpError || err instanceof InputError) return error(err.status, err.message);
    if (isClientAbort(err)) return error(CLIENT_CLOSED, "Client closed request");
    c.set("unexpected", err); // logged by requestLog; the caller learns nothing of it
    return error(500, "Internal server error");
  });
  return app;
}

/** GET /healthz: counts only, enough to see a reload landed, nothing an unauthenticated caller could abuse. */
export function healthz(
  getConfig: () => CompiledConfig,
  version: string,
  models: (() => Record<string, unknown>) | undefined,
): Handler<AppEnv> {
  return (c) => {
    const { config } = getConfig();
    return c.json({
      status: "ok",
      version,
      profiles: config.profiles.size,
      apps: config.apps.size,
      ...(models ? { models: models() } : {}),
    });
  };
}

export type GuardrailApp = ReturnType<typeof createApp>;
