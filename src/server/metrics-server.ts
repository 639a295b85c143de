import { Hono } from "hono";
import type { Registry } from "prom-client";
import { type ConnectionLimits, createHttpServer, listen } from "./http-server.js";
import type { Logger } from "./types.js";

/** Where `/metrics` is served: a port of its own, on loopback unless the operator names a host. */
export interface MetricsListen {
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
}

export interface MetricsServer {
  readonly url: string;
  /** Stops accepting and waits up to `limitMs` for scrapes in flight. */
  close(limitMs: number): Promise<void>;
}

const notFound = () => Response.json({ error: "Not found" }, { status: 404 });

/**
 * Only `GET /metrics`, in Prometheus' text format. It is unauthenticated, like Prometheus'
 * own exporters, so it lives apart from the API: the API port answers `/metrics` with 404, and
 * this listener is reachable from another machine only if its host says so. Scrapes are not
 * logged or counted: one every few seconds would drown the request log.
 */
export function metricsApp(registry: Registry) {
  const app = new Hono();
  app.get("/metrics", async () => {
    const body = await registry.metrics();
    return new Response(body, { headers: { "Content-Type": registry.contentType } });
  });
  app.notFound(notFound);
  app.all("/metrics", () =>
    Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "GET, HEAD" } }),
  );
  app.onError(() => Response.json({ error: "Internal server error" }, { status: 500 }));
  return app;
}

export async function startMetricsServer(
  registry: Registry,
  { port, host = "127.0.0.1" }: MetricsListen,
  limits: ConnectionLimits,
  log: Logger,
): Promise<MetricsServer> {
  const { server, drain } = createHttpServer(metricsApp(registry), host, limits, log);
  const { url } = await listen(server, host, port);
  return { url, close: drain };
}
