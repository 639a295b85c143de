import { Hono } from "hono";
import type { StreamMode } from "../../stream/guard-stream.js";
import { healthz } from "../app.js";
import type { Endpoint } from "../metrics.js";
import { requestLog } from "../request-log.js";
import { requestMetrics } from "../request-metrics.js";
import type { AppParts } from "../start.js";
import { type AppEnv, DEFAULT_LIMITS } from "../types.js";
import { proxyAuth } from "./auth.js";
import { chatCompletions } from "./chat.js";
import { answerError, ProxyError } from "./errors.js";
import type { ProxyMetrics } from "./metrics.js";
import { returnedHeaders, type UpstreamSettings } from "./upstream.js";
import { upstreamCall } from "./upstream-call.js";

export const PROXY_PATHS = { chat: "/v1/chat/completions", models: "/v1/models" } as const;

const ENDPOINTS = new Map<string, Endpoint>([
  [PROXY_PATHS.chat, "chat-completions"],
  [PROXY_PATHS.models, "models"],
  ["/healthz", "healthz"],
]);

export interface ProxyAppDeps extends AppParts {
  readonly upstream: UpstreamSettings;
  /** Whether every request needs the org API key (the proxy listens beyond loopback). */
  readonly requireKey: boolean;
  readonly proxyMetrics?: ProxyMetrics;
  /** How streamed answers are checked (default `sentence`). */
  readonly streamMode?: StreamMode;
}

const methodNotAllowed = (allow: string) => () => {
  const response = answerError(new ProxyError(405, "Method not allowed", "method_not_allowed"));
  response.headers.set("Allow", allow);
  return response;
};

/**
 * `guardrail proxy`: the OpenAI Chat Completions API in front of an upstream that speaks it, every
 * request and answer checked with the app's profile (docs/proxy.md). Listens on nothing (start.ts).
 * Other paths are not forwarded: an endpoint the proxy does not check would be a way around it.
 */
export function createProxyApp(deps: ProxyAppDeps) {
  const { getConfig, log, metrics, upstream } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const app = new Hono<AppEnv>();
  const auth = proxyAuth(getConfig, deps.requireKey);
  app.use(requestLog(log));
  if (metrics) app.use(requestMetrics(metrics, ENDPOINTS));

  const chat = {
    engine: deps.engine,
    limits,
    upstream,
    log,
    ...(deps.proxyMetrics ? { metrics: deps.proxyMetrics } : {}),
    ...(deps.streamMode ? { streamMode: deps.streamMode } : {}),
  };
  app.post(PROXY_PATHS.chat, auth, chatCompletions(chat));
  app.all(PROXY_PATHS.chat, methodNotAllowed("POST"));

  app.get(PROXY_PATHS.models, auth, async (c) => {
    const call = await upstreamCall(chat, c, "/models", { method: "GET" }, c.req.raw.signal);
    call.timer.stop();
    const { response } = call;
    return new Response(response.body, {
      status: response.status,
      headers: returnedHeaders(response.headers),
    });
  });
  app.all(PROXY_PATHS.models, methodNotAllowed("GET, HEAD"));

  app.get("/healthz", healthz(getConfig, deps.version, deps.models));
  app.all("/healthz", methodNotAllowed("GET, HEAD"));

  app.notFound(() =>
    answerError(
      new ProxyError(
        404,
        "Not found: the guardrail proxy serves POST /v1/chat/completions and GET /v1/models",
        "not_found",
      ),
    ),
  );
  app.onError((err, c) => {
    const response = answerError(err);
    if (response.status === 500) c.set("unexpected", err);
    return response;
  });
  return app;
}
